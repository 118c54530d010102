import type { IncomingMessage } from 'node:http';
import { comparableHostName, hostParts, isLoopbackAddress, isLoopbackBind, isWildcardBind } from '../config/hosts.js';
import { isValidHost } from './host-header.js';
import { forwardedHostOf, type OriginSettings } from './request-context.js';

/** What decides which Host values are answered (the `http` part of AppConfig). */
export interface HostSettings extends OriginSettings {
  /** HOST: the address the service binds. */
  host: string;
  /** ALLOWED_HOSTS as parseAllowedHosts gives it; empty when unset. */
  allowedHosts: readonly string[];
}

/**
 * Which Host values (X-Forwarded-Host with TRUST_PROXY) a request may carry, decided once per
 * request by the front door, before any routing:
 * - always a Host header on HTTP/1.1;
 * - without PUBLIC_URL links are built from it, so it must be a plain `host[:port]`;
 * - when ALLOWED_HOSTS is set, or without PUBLIC_URL on a bind other than loopback, only listed
 *   hosts are answered: ALLOWED_HOSTS (a name alone with any port), HOST when it names one address,
 *   PUBLIC_URL's host, the address the connection reached (which covers a `0.0.0.0` bind), and
 *   `localhost` on a loopback connection. Anything else could be a forged Host shaping links.
 * On a loopback bind without ALLOWED_HOSTS any valid host is answered (development).
 */
export class HostPolicy {
  /** Whether the Host is looked at beyond its presence: not with PUBLIC_URL alone. */
  private readonly checked: boolean;
  /** Whether only listed hosts are answered. */
  private readonly listed: boolean;
  /** Comparable names answered with any port, and `name:port` pairs answered with that port only. */
  private readonly names = new Set<string>();
  private readonly namesWithPort = new Set<string>();
  private readonly trustProxy: boolean;
  /** The last host answered (clients send the same one over and over), and the connection address it needed, if any. */
  private lastHost = '';
  private lastLocalAddress: string | undefined;

  constructor(settings: HostSettings) {
    this.trustProxy = settings.trustProxy;
    this.listed = settings.allowedHosts.length > 0 || (settings.publicUrl === undefined && !isLoopbackBind(settings.host));
    this.checked = settings.publicUrl === undefined || this.listed;
    for (const entry of settings.allowedHosts) {
      const parts = hostParts(entry);
      if (parts) (parts.port === undefined ? this.names : this.namesWithPort).add(entry);
    }
    if (!isWildcardBind(settings.host))
      this.names.add(comparableHostName(settings.host.includes(':') ? `[${settings.host}]` : settings.host));
    if (settings.publicUrl !== undefined) this.names.add(comparableHostName(new URL(settings.publicUrl).hostname));
  }

  /** Why a request cannot be answered for its Host, or undefined when it can. */
  problem(req: IncomingMessage): string | undefined {
    const hostHeader = req.headers.host;
    if (hostHeader === undefined) {
      // RFC 9112 §3.2: HTTP/1.1 requires one; an HTTP/1.0 request's links name the local address.
      return req.httpVersionMajor === 1 && req.httpVersionMinor === 0 ? undefined : 'The request has no Host header.';
    }
    if (!this.checked) return undefined;
    const forwarded = this.trustProxy ? forwardedHostOf(req) : undefined;
    const host = forwarded ?? hostHeader.trim();
    if (!isValidHost(host)) return `The ${forwarded === undefined ? 'Host' : 'X-Forwarded-Host'} header is not a valid host[:port].`;
    if (this.listed && !this.answers(host, req)) {
      return `The ${forwarded === undefined ? 'Host' : 'X-Forwarded-Host'} header names a host this service does not answer to (see ALLOWED_HOSTS).`;
    }
    return undefined;
  }

  /** Whether a valid host is listed, or names the address the request's connection reached. */
  private answers(host: string, req: IncomingMessage): boolean {
    // Node types the socket as always there; it is null once the connection has closed.
    const localAddress = (req.socket as IncomingMessage['socket'] | null)?.localAddress;
    if (host === this.lastHost && (this.lastLocalAddress === undefined || this.lastLocalAddress === localAddress)) return true;
    const parts = hostParts(host)!;
    const name = comparableHostName(parts.name);
    let needs: string | undefined;
    if (!this.names.has(name) && !(parts.port !== undefined && this.namesWithPort.has(`${name}:${Number(parts.port)}`))) {
      if (localAddress === undefined || !namesAddress(name, localAddress)) return false;
      needs = localAddress;
    }
    this.lastHost = host;
    this.lastLocalAddress = needs;
    return true;
  }
}

/** Whether a comparable host name is the local address a connection reached (`localhost` for a loopback one). */
function namesAddress(name: string, localAddress: string): boolean {
  const address = localAddress.startsWith('::ffff:') && localAddress.includes('.') ? localAddress.slice(7) : localAddress;
  if (name === (address.includes(':') ? `[${address}]` : address)) return true;
  return name === 'localhost' && isLoopbackAddress(localAddress);
}

/**
 * The boot's warning when HOST lets other machines connect and neither PUBLIC_URL nor
 * ALLOWED_HOSTS says which host they use: only the address they reach is answered then.
 */
export function hostSettingsWarning(settings: HostSettings): string | undefined {
  if (settings.publicUrl !== undefined || settings.allowedHosts.length > 0 || isLoopbackBind(settings.host)) return undefined;
  return (
    `HOST is ${settings.host}, which other machines can reach, and neither PUBLIC_URL nor ALLOWED_HOSTS is set: ` +
    'a request is answered only when its Host names the address it reached (or localhost, from this machine), ' +
    'any other gets 400 / 4000. Set PUBLIC_URL to the URL clients use (every link then starts with it), ' +
    'or ALLOWED_HOSTS to the host[:port] values they send (e.g. api.example.com,api.example.com:8443)'
  );
}
