import { isIP, isIPv6 } from 'node:net';

/**
 * A DNS name or IPv4 address: labels of letters, digits, "-" and "_" ("_" for container names),
 * joined by dots, with the optional final dot of a fully qualified name (`curl http://example.com./`).
 */
const NAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;
const PORT = /^[0-9]{1,5}$/;
const MAX_NAME_LENGTH = 253;

/** A `host[:port]` value cut in two: the host as written (an IPv6 literal keeps its brackets) and the port, if any. */
export interface HostParts {
  name: string;
  port?: string;
}

/**
 * A Host (or X-Forwarded-Host, or ALLOWED_HOSTS entry) as its name and port when it is a plain
 * `host[:port]`: a DNS name, an IPv4 address or a bracketed IPv6 literal, and a port from 1 to
 * 65535. Undefined for anything else (a path, a user, spaces, an empty value, a zone id).
 */
export function hostParts(value: string): HostParts | undefined {
  let name: string;
  let port: string | undefined;
  if (value.startsWith('[')) {
    const close = value.indexOf(']');
    const address = value.slice(1, close);
    // A zone id ("%eth0") names an interface of the client's machine: meaningless in a link.
    if (close < 0 || address.includes('%') || !isIPv6(address)) return undefined;
    const rest = value.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) return undefined;
    name = value.slice(0, close + 1);
    port = rest === '' ? undefined : rest.slice(1);
  } else {
    const colon = value.lastIndexOf(':');
    name = colon >= 0 ? value.slice(0, colon) : value;
    if (colon >= 0) port = value.slice(colon + 1);
    if (name.length > MAX_NAME_LENGTH || !NAME.test(name)) return undefined;
  }
  if (port !== undefined && (!PORT.test(port) || Number(port) < 1 || Number(port) > 65535)) return undefined;
  return { name, port };
}

/** How host names compare: without case, and without the final dot of a fully qualified name. */
export function comparableHostName(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** The most entries ALLOWED_HOSTS may list. */
export const MAX_ALLOWED_HOSTS = 100;

/**
 * ALLOWED_HOSTS as the comparable entries Host values are checked against, e.g.
 * `api.example.com, API.example.com.:8443` → `api.example.com`, `api.example.com:8443`. Each entry is
 * a plain `host[:port]` (see hostParts); a name alone matches it with any port. `*` and other
 * patterns are refused: Tessera answers to the names listed, nothing wider. Throws an Error naming
 * the first bad entry.
 */
export function parseAllowedHosts(value: string): string[] {
  const entries = value.split(',').map((entry) => entry.trim());
  if (entries.length > MAX_ALLOWED_HOSTS) throw new Error(`lists ${entries.length} hosts; at most ${MAX_ALLOWED_HOSTS}`);
  const hosts = entries.map((entry) => {
    const shown = JSON.stringify(entry);
    if (entry === '') throw new Error('has an empty entry: separate hosts with single commas');
    if (entry.includes('*')) throw new Error(`${shown} is not allowed: list each host, e.g. api.example.com (no wildcards)`);
    if (entry.includes('//')) throw new Error(`${shown} must be a host[:port] such as api.example.com:8443, not a URL`);
    const parts = hostParts(entry);
    if (!parts) throw new Error(`${shown} is not a host[:port] such as api.example.com:8443 or [2001:db8::1]`);
    const name = comparableHostName(parts.name);
    return parts.port === undefined ? name : `${name}:${Number(parts.port)}`;
  });
  return [...new Set(hosts)];
}

/** Whether HOST binds the loopback interface only (`localhost`, 127.0.0.0/8, `::1`): only this machine can connect. */
export function isLoopbackBind(host: string): boolean {
  const name = comparableHostName(host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);
  return name === 'localhost' || name.endsWith('.localhost') || isLoopbackAddress(name);
}

/** Whether an address (as a socket reports it) is a loopback one: 127.0.0.0/8, `::1`, or 127.x mapped into IPv6. */
export function isLoopbackAddress(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return (isIP(v4) === 4 && v4.startsWith('127.')) || address === '::1';
}

/** Whether HOST binds every interface (`0.0.0.0`, `::`): the address clients reach is then not HOST itself. */
export function isWildcardBind(host: string): boolean {
  return host === '0.0.0.0' || (isIPv6(host) && /^[0:]+$/.test(host));
}

/**
 * Where links to this service start for a person at this machine: PUBLIC_URL when set, otherwise
 * `http://HOST:PORT` (an IPv6 address in brackets, so the URL opens). The boot banner and the
 * generator's closing lines name the API, the console and Swagger UI with it.
 */
export function serviceOrigin(http: { publicUrl?: string; host: string; port: number }): string {
  return http.publicUrl ?? `http://${isIPv6(http.host) ? `[${http.host}]` : http.host}:${http.port}`;
}
