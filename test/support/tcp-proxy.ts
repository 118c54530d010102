import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on a loopback port in front of a database server, so that a test can take the
 * database away from one app (its connections cut, new ones refused) without touching the server
 * other suites share.
 */
export interface TcpProxy {
  /** `url` with its host and port replaced by the proxy's. */
  urlThrough(url: string): string;
  /** Cuts every connection and refuses new ones (ECONNREFUSED), as a server gone down would. */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function tcpProxy(host: string, port: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(port, host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (at: number): Promise<void> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(at, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (server.listening) server.close(() => resolve());
      else resolve();
    });
  await listen(0);
  const own = (server.address() as { port: number }).port;
  return {
    urlThrough: (url) => {
      const through = new URL(url);
      through.hostname = '127.0.0.1';
      through.port = String(own);
      return through.toString();
    },
    cut: stop,
    restore: () => listen(own),
    close: stop,
  };
}
