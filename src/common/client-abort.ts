import type { IncomingMessage } from 'node:http';

/**
 * True when the client closed the connection before its request had fully arrived: whatever
 * error that caused is the body's read failing (Fastify passes on the socket's ECONNRESET,
 * Express a 400 "request aborted"), not an outage. A handler only runs once the body is
 * complete, so a database's own ECONNRESET never meets an incomplete request: it stays a 503.
 */
export function isClientAbort(request: IncomingMessage): boolean {
  return !request.complete && (request.readableAborted || (request as { aborted?: boolean }).aborted === true);
}
