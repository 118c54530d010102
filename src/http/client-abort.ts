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

/**
 * Runs `work` with a signal that aborts if the client's connection closes before `work` is
 * done: the answer can no longer reach it. Node's HTTP server closes a connection as soon as
 * the client ends its side (it keeps no half-open connections), so a client that stopped
 * waiting is seen then, not when the answer is written. The listener goes with `work`, so a
 * keep-alive connection does not collect one per request.
 */
export async function whileClientConnected<T>(request: IncomingMessage, work: (clientGone: AbortSignal) => Promise<T>): Promise<T> {
  const gone = new AbortController();
  const abort = () => gone.abort();
  const { socket } = request;
  if (socket.destroyed) abort();
  else socket.once('close', abort);
  try {
    return await work(gone.signal);
  } finally {
    socket.off('close', abort);
  }
}
