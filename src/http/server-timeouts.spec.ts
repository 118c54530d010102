import { createServer } from 'node:http';
import { applyServerTimeouts, serverTimeouts } from './server-timeouts.js';

describe('serverTimeouts', () => {
  it('gives headers at most 10 s of the request timeout, and checks four times within it', () => {
    expect(serverTimeouts({ requestTimeoutMs: 30_000, keepAliveTimeoutMs: 65_000 })).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 65_000,
      timeout: 0,
      connectionsCheckingInterval: 1000,
    });
    expect(serverTimeouts({ requestTimeoutMs: 1000, keepAliveTimeoutMs: 1000 })).toMatchObject({
      headersTimeout: 1000,
      requestTimeout: 1000,
      connectionsCheckingInterval: 250,
    });
  });

  it('sets them on a Node server, replacing its defaults', () => {
    const server = createServer();
    applyServerTimeouts(server, { requestTimeoutMs: 20_000, keepAliveTimeoutMs: 7000 });
    expect(server).toMatchObject({
      headersTimeout: 10_000,
      requestTimeout: 20_000,
      keepAliveTimeout: 7000,
      timeout: 0,
      connectionsCheckingInterval: 1000,
    });
  });
});
