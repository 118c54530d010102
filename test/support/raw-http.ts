import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
  /** JSON body, when it parses. */
  json?: unknown;
}

function parseResponse(text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n');
  const head = end < 0 ? text : text.slice(0, end);
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = end < 0 ? '' : text.slice(end + 4);
  let json: unknown;
  try {
    json = body === '' ? undefined : JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0), headers, body, json };
}

/**
 * Sends bytes exactly as given over a fresh connection and reads the first answer: for
 * requests no HTTP client library would send (broken syntax, absolute targets, 100 KB lines).
 * The answer is complete at its Content-Length, or when the server closes the connection.
 */
export function rawRequest(port: number, request: string | Buffer, timeoutMs = 10_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      if (chunks.length === 0) reject(error ?? new Error('the connection closed without an answer'));
      else resolve(parseResponse(text));
    };
    const timer = setTimeout(() => finish(new Error('no complete answer in time')), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1];
      const isHead = /^HEAD /.test(typeof request === 'string' ? request : request.toString('latin1', 0, 5));
      if (isHead || (length !== undefined && text.length - end - 4 >= Number(length))) finish();
    });
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', (error) => finish(error));
    socket.write(request);
  });
}
