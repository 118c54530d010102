import { hostParts } from '../config/hosts.js';

/** The one Host value seen last that passed: clients send the same Host over and over. */
let lastValid = '';

/**
 * Whether a Host (or X-Forwarded-Host) value is a plain `host[:port]`: a DNS name, an IPv4
 * address or a bracketed IPv6 literal, and a port from 1 to 65535 (see hostParts). Anything else
 * (a path, a user, spaces, an empty value) must never reach a link Tessera hands out.
 */
export function isValidHost(value: string): boolean {
  if (value === lastValid) return true;
  if (hostParts(value) === undefined) return false;
  lastValid = value;
  return true;
}
