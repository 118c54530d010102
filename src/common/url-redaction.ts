/** What replaces the value of an `auth` query parameter wherever a URL is logged. */
export const REDACTED = '[REDACTED]';

/** Whitespace, control characters and leading `?`s around a name: what a lenient reader would drop. */
const PADDING = /^[\s\p{Cc}?]+|[\s\p{Cc}]+$/gu;
const BRACKET_GROUPS = /\[[^\]]*\]/g;
const BRACKETS = /[[\]]/g;
const AUTH = /^auth$/i;

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
 * `auth`). Most queries hold none of them and are never split.
 */
const MAY_NAME_AUTH = /auth|[%[\]]/i;

/**
 * The URL with the value of every parameter that may carry an auth key (isAuthParamName)
 * replaced by `[REDACTED]`, so keys never reach a log; everything else stays as the client
 * sent it. Called for every request line: a URL without a query, or whose query cannot name
 * `auth` (MAY_NAME_AUTH), is answered as it is without being parsed.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url.slice(at + 1);
  if (!MAY_NAME_AUTH.test(query)) return url;
  const parts = query.split('&').map((part) => {
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    return eq >= 0 && isAuthParamName(name) ? `${name}=${REDACTED}` : part;
  });
  return `${url.slice(0, at)}?${parts.join('&')}`;
}

/** Removes every parameter that may carry an auth key from a URL built from the request (next_batch links). */
export function deleteAuthParams(params: URLSearchParams): void {
  for (const name of [...new Set(params.keys())]) {
    // URLSearchParams decoded each name once; isAuthParamName decodes what is left.
    if (isAuthParamName(name)) params.delete(name);
  }
}
