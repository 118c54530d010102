import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { suiteApp, testTargets, type TestApp } from './support/test-app.js';

/**
 * Issue 31: Express 5 gives each request and response its app's prototypes (`Object.setPrototypeOf` in `app.handle`).
 * Done to objects that already exist, that made V8 give each request shapes of its own in the old generation (RSS
 * 260 MB on `@heartbeat`, and a large part of Express's throughput; figures in bench/RESULTS.md). Tessera's HTTP
 * server makes them with those prototypes from the start, so Express's call changes nothing. Only the adapter matters
 * here, so one database is enough.
 */
const target = testTargets().find((t) => t.adapter === 'express' && t.database === 'sqlite')!;

describe(`requests and responses are made with Express's prototypes [${target.name}]`, () => {
  let t: TestApp;
  let express: Express;
  let server: Server;
  /** Each request's and response's prototype as Node's HTTP server made them, before any listener ran. */
  const made: Array<{ request: object | null; response: object | null; isRequest: boolean; isResponse: boolean }> = [];

  suiteApp(target, {}, (app) => {
    t = app;
    express = t.app.getHttpAdapter().getInstance() as Express;
    server = t.app.getHttpServer() as Server;
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      made.push({
        request: Object.getPrototypeOf(req) as object | null,
        response: Object.getPrototypeOf(res) as object | null,
        isRequest: req instanceof IncomingMessage,
        isResponse: res instanceof ServerResponse,
      });
    });
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  beforeEach(() => {
    made.length = 0;
  });

  /** GETs `path` `count` times on one keep-alive connection (fetch reuses it), each answer read in full. */
  async function getMany(path: string, count: number): Promise<number[]> {
    const { port } = server.address() as AddressInfo;
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    return statuses;
  }

  it("has them from the start on every request of a connection, and they are still Node's request and response", async () => {
    expect(await getMany(`${t.base}/@heartbeat`, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(made).toHaveLength(5);
    for (const objects of made) {
      expect(objects.request).toBe(express.request);
      expect(objects.response).toBe(express.response);
      expect(objects).toMatchObject({ isRequest: true, isResponse: true });
    }
  });

  it('answers as before what Express answers, and what the front door refuses before Express sees it', async () => {
    expect(await getMany(`${t.base}/@heartbeat`, 1)).toEqual([200]);
    // A path no route has: the 404 envelope; and one without a token: the 401.
    expect(await getMany('/no-such-path', 1)).toEqual([404]);
    expect(await getMany(`${t.base}/customer`, 1)).toEqual([401]);
    // Refused by the front door (a percent sign that encodes nothing) before any routing.
    expect(await getMany(`${t.base}/customer?filter=%zz`, 1)).toEqual([400]);
    expect(made.map((m) => m.request === express.request && m.response === express.response)).toEqual([true, true, true, true]);
  });
});
