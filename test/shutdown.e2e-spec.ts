import { connect, type Socket } from 'node:net';
import { startService, type ServiceProcess } from './support/service-process.js';
import { describeEachTargetOnBothAdapters } from './support/test-app.js';
import { createScratchDatabase, type ScratchDatabase } from './support/test-databases.js';

const B = '/rest/default/demo/v1';
const LOGIN = JSON.stringify({ username: 'demo', password: 'Password1' });

/** A connection that stays open between requests, read by hand, so the test sees what the server does to it. */
class KeepAliveClient {
  readonly socket: Socket;
  private received = '';
  readonly closed: Promise<number>;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (d: Buffer) => (this.received += d.toString('latin1')));
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.socket.on('close', () => resolve(Date.now())));
  }

  send(method: string, path: string, body?: string): void {
    const head =
      `${method} ${path} HTTP/1.1\r\nHost: tessera.test\r\n` +
      (body === undefined ? '' : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`);
    this.socket.write(`${head}\r\n${body ?? ''}`);
  }

  /** The head of the n-th answer (from 0), once it is complete. */
  async answer(n: number, timeoutMs = 10_000): Promise<{ status: number; headers: string }> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const heads = [...this.received.matchAll(/HTTP\/1\.1 (\d{3})[^\r]*\r\n([\s\S]*?)\r\n\r\n/g)];
      const head = heads[n];
      if (head) return { status: Number(head[1]), headers: head[2]!.toLowerCase() };
      if (Date.now() > until) throw new Error(`no answer ${n} in time; got ${JSON.stringify(this.received.slice(0, 500))}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeEachTargetOnBothAdapters('shutdown of the service process', (target) => {
  let database: ScratchDatabase;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    database = await createScratchDatabase(target.database);
  });
  afterAll(async () => {
    await database.drop();
  });
  afterEach(() => {
    service?.kill();
    service = undefined;
  });

  const start = async (env: Record<string, string> = {}) => {
    service = await startService({ DATABASE_URL: database.url, HTTP_ADAPTER: target.adapter, ...env });
    return service;
  };

  it('lets an in-flight request finish and exits 0 when SIGTERM comes twice (a process group under npm start) or more', async () => {
    // A provider that never answers: the login is in flight until AUTH_PROVIDER_TIMEOUT_MS, then 503 / 5031.
    const s = await start({ AUTH_PROVIDERS_DIR: 'test/fixtures/providers', AUTH_PROVIDER: 'unruly', AUTH_PROVIDER_TIMEOUT_MS: '1500' });
    const started = Date.now();
    const login = fetch(`http://127.0.0.1:${s.port}${B}/@authentication`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'hang', password: 'x' }),
    });
    await sleep(50);
    s.child.kill('SIGTERM');
    await sleep(10);
    s.child.kill('SIGTERM');
    await sleep(300);
    s.child.kill('SIGTERM');
    const res = await login;
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ statusCode: 503, errorCode: 5031 });
    expect(res.headers.get('connection')).toBe('close');
    expect(await s.exited).toMatchObject({ code: 0, signal: null });
    expect(s.stdout()).toMatch(/already shutting down/);
  });

  it('closes idle keep-alive connections at once, closes busy ones after their answer, and exits promptly', async () => {
    // A database of its own, so the demo user's hash is made at cost 13 (about 0.6 s to check): the suite's
    // database was seeded at cost 10 by the first test, and a 60 ms login could answer before the signal was
    // handled on a loaded machine, leaving nothing busy to drain.
    const own = await createScratchDatabase(target.database);
    try {
      const s = await start({ DATABASE_URL: own.url, BCRYPT_COST: '13', SHUTDOWN_GRACE_MS: '20000' });
      const idle = new KeepAliveClient(s.port);
      idle.send('GET', `${B}/@heartbeat`);
      expect((await idle.answer(0)).headers).toMatch(/connection: keep-alive/);
      const busy = new KeepAliveClient(s.port);
      busy.send('GET', `${B}/@heartbeat`);
      await busy.answer(0);
      busy.send('POST', `${B}/@authentication`, LOGIN);
      await sleep(50);
      const signalled = Date.now();
      s.child.kill('SIGTERM');
      expect(await idle.closed).toBeLessThan(signalled + 1000);
      const last = await busy.answer(1);
      expect(last.status).toBe(200);
      expect(last.headers).toMatch(/connection: close/);
      await busy.closed;
      const exit = await s.exited;
      expect(exit.code).toBe(0);
      // Well inside the 20 s grace period: nothing waited for a keep-alive timeout or a client.
      expect(exit.at - signalled).toBeLessThan(5000);
    } finally {
      service?.kill();
      await own.drop();
    }
  });

  it('exits 0 promptly after clients dropped requests midway: partial bodies, half-closed and reset sockets', async () => {
    const s = await start({ BCRYPT_COST: '13', SHUTDOWN_GRACE_MS: '20000' });
    const dropped: Socket[] = [];
    for (const how of ['end', 'destroy', 'answer-unread']) {
      const socket = connect(s.port, '127.0.0.1');
      socket.on('error', () => undefined);
      if (how === 'answer-unread')
        socket.write(
          `POST ${B}/@authentication HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${LOGIN.length}\r\n\r\n${LOGIN}`,
        );
      else
        socket.write(
          `POST ${B}/@authentication HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"username":`,
        );
      dropped.push(socket);
    }
    await sleep(100);
    dropped[0]!.end();
    dropped[1]!.destroy();
    dropped[2]!.resetAndDestroy();
    await sleep(50);
    const signalled = Date.now();
    s.child.kill('SIGTERM');
    const exit = await s.exited;
    expect(exit.code).toBe(0);
    expect(exit.at - signalled).toBeLessThan(5000);
  });

  it('exits within SHUTDOWN_GRACE_MS + 2 s when a request is still running at the grace limit', async () => {
    const s = await start({
      SHUTDOWN_GRACE_MS: '1000',
      AUTH_PROVIDERS_DIR: 'test/fixtures/providers',
      AUTH_PROVIDER: 'unruly',
      AUTH_PROVIDER_TIMEOUT_MS: '120000',
    });
    // A provider that never answers, and a client that never finishes its body.
    const hanging = fetch(`http://127.0.0.1:${s.port}${B}/@authentication`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'hang', password: 'x' }),
    }).catch(() => undefined);
    const partial = connect(s.port, '127.0.0.1');
    partial.on('error', () => undefined);
    partial.write(`POST ${B}/@authentication HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`);
    await sleep(200);
    const signalled = Date.now();
    s.child.kill('SIGTERM');
    const exit = await s.exited;
    partial.destroy();
    await hanging;
    expect(exit.code).toBe(1);
    expect(exit.at - signalled).toBeGreaterThanOrEqual(900);
    expect(exit.at - signalled).toBeLessThan(3000);
    expect(s.stdout()).toMatch(/shutdown grace period over/);
  });

  it('ends the process within SHUTDOWN_GRACE_MS + 2 s even when its main thread is stuck after SIGTERM', async () => {
    const s = await start({
      SHUTDOWN_GRACE_MS: '1000',
      AUTH_PROVIDERS_DIR: 'test/fixtures/providers',
      AUTH_PROVIDER: 'stall',
      AUTH_PROVIDER_TIMEOUT_MS: '120000',
    });
    const stalled = fetch(`http://127.0.0.1:${s.port}${B}/@authentication`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'u', password: 'x' }),
    }).catch(() => undefined);
    await sleep(100);
    const signalled = Date.now();
    // The listener closes; 200 ms later the provider blocks the event loop for 30 s.
    s.child.kill('SIGTERM');
    const exit = await s.exited;
    await stalled;
    expect(exit.at - signalled).toBeLessThan(3000);
    expect(exit.signal).toBe('SIGKILL');
  });
});
