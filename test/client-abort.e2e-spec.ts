import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { apiAs, type Api } from './support/api.js';
import { loginAs } from './support/auth.js';
import { capturedLog } from './support/captured-log.js';
import { describeEachTargetOnBothAdapters, suiteApp, type TestApp } from './support/test-app.js';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends a request whose body stops after `sent` (of 100 announced bytes, or one chunk), then drops the connection. */
function abortMidBody(port: number, path: string, apikey: string, sent: string, chunked = false): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      const framing = chunked ? 'Transfer-Encoding: chunked' : 'Content-Length: 100';
      const body = chunked ? `${sent.length.toString(16)}\r\n${sent}\r\n` : sent;
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: tessera.test\r\nAuthorization: CALiveAPICreator ${apikey}:1\r\n` +
          `Content-Type: application/json\r\n${framing}\r\n\r\n${body}`,
      );
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, 100);
    });
    socket.on('error', () => undefined);
  });
}

/**
 * A client that disconnects while sending its body is not a database outage: Fastify's body
 * reader fails with the socket's ECONNRESET, which was answered 503 / 5030 and logged at error
 * level with a stack trace. Both adapters now log it at debug level only, the same way.
 */
describeEachTargetOnBothAdapters('a client that disconnects mid-body', (target) => {
  let t: TestApp;
  let api: Api;
  let apikey: string;
  let port: number;
  const log = capturedLog('debug');

  suiteApp(target, { logger: log.logger }, async (app) => {
    t = app;
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    apikey = await loginAs(t, 'demo', 'Password1');
    api = await apiAs(t, 'demo');
  });

  it.each([
    ['a body shorter than its Content-Length', false],
    ['a chunked body without its last chunk', true],
  ])('is logged at debug level, never as an error or an unavailable database: %s', async (_case, chunked) => {
    log.clear();
    await abortMidBody(port, `${t.base}/customer`, apikey, '{"na', chunked);
    await pause(300);
    const records = log.records();
    expect(records.filter((r) => (r.level as number) >= 40).map((r) => r.msg)).toEqual([]);
    expect(log.text()).not.toMatch(/service unavailable|5030|stack/);
    expect(records.filter((r) => r.msg === 'the client closed the connection before its request body arrived')).toHaveLength(1);
    // The service goes on answering.
    await api.post('/customer', { name: `after abort ${target.adapter} ${chunked}`, credit_limit: 100 }).expect(201);
  });
});
