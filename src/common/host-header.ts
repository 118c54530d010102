import { isIPv6 } from 'node:net';

/**
 * A DNS name or IPv4 address: labels of letters, digits, "-" and "_" ("_" for container names),
 * joined by dots, with the optional final dot of a fully qualified name (`curl http://example.com./`).
 */
const NAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;
const PORT = /^[0-9]{1,5}$/;
const MAX_NAME_LENGTH = 253;

/** The one Host value seen last that passed: clients send the same Host over and over. */
let lastValid = '';

/**
 * Whether a Host (or X-Forwarded-Host) value is a plain `host[:port]`: a DNS name, an IPv4
 * address or a bracketed IPv6 literal, and a port from 1 to 65535. Anything else (a path, a
 * user, spaces, an empty value) must never reach a link Tessera hands out.
 */
export function isValidHost(value: string): boolean {
  if (value === lastValid) return true;
  let port: string | undefined;
  if (value.startsWith('[')) {
    const close = value.indexOf(']');
    const address = value.slice(1, close);
    // A zone id ("%eth0") names an interface of the client's machine: meaningless in a link.
    if (close < 0 || address.includes('%') || !isIPv6(address)) return false;
    const rest = value.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) return false;
    port = rest === '' ? undefined : rest.slice(1);
  } else {
    const colon = value.lastIndexOf(':');
    const name = colon >= 0 ? value.slice(0, colon) : value;
    if (colon >= 0) port = value.slice(colon + 1);
    if (name.length > MAX_NAME_LENGTH || !NAME.test(name)) return false;
  }
  if (port !== undefined && (!PORT.test(port) || Number(port) < 1 || Number(port) > 65535)) return false;
  lastValid = value;
  return true;
}
