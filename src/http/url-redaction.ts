/** What replaces the value of an `auth` query parameter wherever a URL is logged. */
export const REDACTED = '[REDACTED]';

/** Whitespace, control characters and leading `?`s around a name: what a lenient reader would drop. */
const PADDING = /^[\s\p{Cc}?]+|[\s\p{Cc}]+$/gu;
const BRACKET_GROUPS = /\[[^\]]*\]/g;
const BRACKETS = /[[\]]/g;
const AUTH = /^auth$/i;
const MAY_NEED_WORK = /[%+?[\]\s\p{Cc}]/u;

/** One round of query-string decoding, as lenient as URLSearchParams: `+` is a space, a broken escape stays as it is. */
export function decodeQueryComponent(text: string): string {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/%([0-7][0-9A-Fa-f])/g, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}

/**
 * True when a query parameter name may carry an auth key, as some reader of the URL (a proxy,
 * a log viewer, a `qs`-style parser, a server that decodes twice) could take it: percent-decoded
 * as many times as that changes it (`%2561uth`), without the whitespace, control characters and
 * leading `?`s around it (`%20auth`, `+auth`, `auth%20`, `??auth`), without brackets (`auth[]`,
 * `auth[0]`, `auth[x]`, `[auth]`), in any case (`AUTH`, `%41uth`), it is `auth`. Only the exact
 * name `auth` carries a key to Tessera (see apiKeyOfRequest); the others are redacted all the same.
 */
export function isAuthParamName(rawName: string): boolean {
  // Most names (pagesize, filter) hold nothing to decode, trim or remove.
  if (!MAY_NEED_WORK.test(rawName)) return AUTH.test(rawName);
  let name = rawName;
  for (let decoded = decodeQueryComponent(name); decoded !== name; decoded = decodeQueryComponent(name)) name = decoded;
  name = name.replace(PADDING, '');
  if (AUTH.test(name)) return true;
  if (!name.includes('[') && !name.includes(']')) return false;
  const bare = (without: RegExp) => AUTH.test(name.replace(without, '').replace(PADDING, ''));
  return bare(BRACKET_GROUPS) || bare(BRACKETS);
}

/**
 * Whether a query may hold a name isAuthParamName accepts: one that spells `auth` in clear, in
 * any case, or holds an escape or a bracket (padding alone, `+` included, never makes a name
 * `auth`). Searched from the `?` on (lastIndex), without copying the query.
 */
const MAY_NAME_AUTH = /auth|[%[\]]/gi;

/**
 * The URL with the value of every parameter that may carry an auth key (isAuthParamName)
 * replaced by `[REDACTED]`, so keys never reach a log; everything else stays as the client
 * sent it. Called for every request line: a URL without a query, or whose query cannot name
 * `auth` (MAY_NAME_AUTH), is answered as it is without being scanned, and one without such a
 * parameter is answered as it is too, after only its names were looked at.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  MAY_NAME_AUTH.lastIndex = at;
  if (!MAY_NAME_AUTH.test(url)) return url;
  let redacted = '';
  let copied = 0;
  for (let start = at + 1; start > 0;) {
    const amp = url.indexOf('&', start);
    const end = amp < 0 ? url.length : amp;
    const eq = url.indexOf('=', start);
    if (eq >= 0 && eq < end && isAuthParamName(url.slice(start, eq))) {
      redacted += `${url.slice(copied, eq + 1)}${REDACTED}`;
      copied = end;
    }
    start = amp + 1;
  }
  return copied === 0 ? url : redacted + url.slice(copied);
}

/** Removes every parameter that may carry an auth key from a URL built from the request (next_batch links). */
export function deleteAuthParams(params: URLSearchParams): void {
  for (const name of [...new Set(params.keys())]) {
    // URLSearchParams decoded each name once; isAuthParamName decodes what is left.
    if (isAuthParamName(name)) params.delete(name);
  }
}
