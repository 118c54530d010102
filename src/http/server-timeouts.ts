import type { Server } from 'node:http';

export interface ServerTimeoutSettings {
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

/** A client that is sending is not that slow with its headers: they come in one piece from any real client. */
const HEADERS_TIMEOUT_MS = 10_000;

/** Node's timeouts for the HTTP server, the same whichever adapter runs on it. */
export function serverTimeouts(settings: ServerTimeoutSettings) {
  const headersTimeout = Math.min(HEADERS_TIMEOUT_MS, settings.requestTimeoutMs);
  return {
    headersTimeout,
    requestTimeout: settings.requestTimeoutMs,
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    // No inactivity timeout on a connection with a request under way: the two above bound a request's
    // arrival, and a slow answer (a long query) is the statement timeout's business.
    timeout: 0,
    // Node looks for requests past those timeouts every so often (by default 30 s, which would let a
    // 30 s limit stretch to nearly 60): often enough that a limit holds to within a quarter of the headers'.
    connectionsCheckingInterval: Math.min(1000, Math.max(100, Math.floor(headersTimeout / 4))),
  };
}

/**
 * Sets the same timeouts on the server whichever framework created it: Express leaves Node's
 * defaults (a request may take 300 s to arrive, idle connections close after 5 s), Fastify sets
 * its own (no request timeout at all, idle connections kept 72 s). A request that does not arrive
 * in time is answered by the front door (see clientErrorAnswer). Before `listen`: Node starts
 * its connection checks when the server starts listening.
 */
export function applyServerTimeouts(server: Server, settings: ServerTimeoutSettings): void {
  Object.assign(server, serverTimeouts(settings));
}
