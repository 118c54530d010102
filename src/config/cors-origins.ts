/** The most origins CORS_ORIGINS may list: a longer list is a sign of a pattern the setting cannot express. */
export const MAX_CORS_ORIGINS = 100;

/**
 * CORS_ORIGINS as the exact origins a browser sends in its `Origin` header, e.g.
 * `https://app.example.com,http://localhost:5173` → both, serialized as browsers do (scheme and
 * host in lower case, no default port). Each entry must be a whole origin, `scheme://host[:port]`
 * over http or https, and nothing more: no path (not even "/"), query, fragment or user. `*` is
 * refused: Tessera names each origin it answers, so no setting opens the API to every page on the web.
 * Throws an Error naming the first bad entry.
 */
export function parseCorsOrigins(value: string): string[] {
  const entries = value.split(',').map((entry) => entry.trim());
  if (entries.length > MAX_CORS_ORIGINS) throw new Error(`lists ${entries.length} origins; at most ${MAX_CORS_ORIGINS}`);
  const origins = entries.map(parseOrigin);
  return [...new Set(origins)];
}

function parseOrigin(entry: string): string {
  const shown = JSON.stringify(entry);
  if (entry === '') throw new Error('has an empty entry: separate origins with single commas');
  if (entry.includes('*')) {
    throw new Error(`${shown} is not allowed: list each origin, e.g. https://app.example.com (no wildcards)`);
  }
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new Error(`${shown} is not an origin such as https://app.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${shown} must start with http:// or https://`);
  // What follows the "//": the authority alone. A path, query or fragment (even a lone "/") means it is a URL, not an origin.
  const rest = entry.slice(entry.indexOf('//') + 2);
  if (/[/?#]/.test(rest)) throw new Error(`${shown} must be an origin, scheme://host[:port], without a path, query or fragment`);
  if (url.username !== '' || url.password !== '' || rest.includes('@')) throw new Error(`${shown} must not carry a user name or password`);
  return url.origin;
}
