/**
 * `Content-Disposition` for LAC's `downloadName`: `attachment; filename="<fallback>"; filename*=UTF-8''<name>`
 * (RFC 6266 with RFC 8187/5987 encoding). The quoted fallback keeps printable ASCII but `"`, `\`, `%` and
 * path separators (each becomes `_`), so old clients get a usable name; `filename*` carries the name itself,
 * percent-encoded as UTF-8, every byte outside RFC 5987's attr-char encoded. Neither part can hold a CR, LF or a
 * quote that ends it, so the header cannot be split or extended; the name's directory parts are not a path on
 * the client (`/` and `\` are replaced in the fallback and encoded in `filename*`).
 *
 * `name` has been checked (query-parameters.ts): 1 to 255 characters, no control characters, well-formed.
 */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%/]/gu, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeRfc5987(name)}`;
}

/** RFC 5987 `value-chars`: attr-char as is, every other UTF-8 byte as %XX. */
function encodeRfc5987(text: string): string {
  // encodeURIComponent leaves A-Z a-z 0-9 - _ . ! ~ * ' ( ) as they are; of those, ' ( ) * are not attr-chars.
  return encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
