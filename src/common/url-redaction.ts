/** What replaces the value of an `auth` query parameter wherever a URL is logged. */
export const REDACTED = '[REDACTED]';

/**
 * True when a decoded query parameter name may carry an auth key: `auth` in any case, also
 * behind leading `?`s (URLSearchParams drops one at the start of a query, so `??auth=` is
 * read as `auth`; dropping more than one only redacts a little more).
 */
function namesAuth(decodedName: string): boolean {
  return decodedName.replace(/^\?+/, '').toLowerCase() === 'auth';
}

/**
 * True when a query parameter, by its name as the client wrote it, may carry an auth key: the
 * name decodes (as URLSearchParams decodes it, which is how the key is read) to `auth` in any
 * case. `%61uth`, `a%75th`, `AUTH` and `a%55TH` all count.
 */
export function isAuthParamName(rawName: string): boolean {
  if (!rawName.includes('%')) return namesAuth(rawName);
  const [decoded] = new URLSearchParams(`${rawName}=`).keys();
  return decoded !== undefined && namesAuth(decoded);
}

/**
 * The URL with the value of every `auth` query parameter replaced by `[REDACTED]`, so keys
 * never reach a log; everything else stays as the client sent it. Called for every request
 * line: a URL without a query, or whose query has no `%` and no `auth` in any case, is
 * answered as it is without being parsed.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url.slice(at + 1);
  if (!query.includes('%') && !/auth/i.test(query)) return url;
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
    if (namesAuth(name)) params.delete(name);
  }
}
