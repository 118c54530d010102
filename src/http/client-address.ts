import type { IncomingMessage } from 'node:http';

/** `::ffff:127.0.0.1` and `127.0.0.1` are the same client. */
function normalize(address: string): string {
  const trimmed = address.trim();
  return trimmed.startsWith('::ffff:') && trimmed.includes('.') ? trimmed.slice('::ffff:'.length) : trimmed;
}

/**
 * The client's address. `X-Forwarded-For` is believed only when the operator says a proxy
 * of theirs sets it (TRUST_PROXY); then its first entry, the original client, counts, as
 * Express and Fastify do with trust proxy on. Computed here so both adapters agree.
 */
export function clientAddressOf(request: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const header = request.headers['x-forwarded-for'];
    const first = (Array.isArray(header) ? header[0] : header)?.split(',')[0];
    if (first && first.trim() !== '') return normalize(first).slice(0, 64);
  }
  // Node types the socket as always there; it is null once the connection has closed.
  const socket = request.socket as typeof request.socket | null;
  return normalize(socket?.remoteAddress ?? 'unknown');
}
