import { apiAs, type Api } from './support/api.js';
import { capturedLog } from './support/captured-log.js';
import { killerOf } from './support/connection-killer.js';
import { demoRuleViolations } from './support/demo-invariants.js';
import { tcpProxy, type TcpProxy } from './support/tcp-proxy.js';
import { createScratchDatabase, type ScratchDatabase } from './support/test-databases.js';
import { describeEachTarget, startTestApp, suiteApp, type TestApp } from './support/test-app.js';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The database kills the service's connections (a failover, an administrator, a proxy) while
 * writes run: each write either commits or answers 503 / 5030, the process survives (a pg client
 * without an 'error' listener for one tick used to crash it), and service resumes afterwards.
 */
describeEachTarget('connections killed during concurrent writes', (target) => {
  if (target.database === 'sqlite') {
    it('has no server connection to kill', () => undefined);
    return;
  }
  let t: TestApp;
  let api: Api;
  const log = capturedLog('debug');

  suiteApp(target, { logger: log.logger }, async (app) => {
    t = app;
    api = await apiAs(t, 'demo');
  });

  it('answers every write with 201 or 503 / 5030, stays up, and recovers', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown): void => void uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    const killer = await killerOf(t, target.database);
    const outcomes: Record<string, number> = {};
    let killed = 0;
    try {
      for (let round = 0; round < 4; round++) {
        const writes = Array.from({ length: 20 }, (_, i) =>
          api
            .post('/lineitem', { order_number: 1 + (i % 5), product_number: 1 + (i % 4), qty_ordered: 1 })
            .then((r) => `${r.status}/${r.body.errorCode ?? ''}`),
        );
        const writesDone = new AbortController();
        const storm = (async () => {
          while (!writesDone.signal.aborted) {
            killed += await killer.killOthers().catch(() => 0);
            await pause(15);
          }
        })();
        for (const outcome of await Promise.all(writes)) outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
        writesDone.abort();
        await storm;
        await pause(200);
      }
    } finally {
      await killer.end();
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
    expect(killed).toBeGreaterThan(0);
    expect(Object.keys(outcomes).filter((o) => o !== '201/' && o !== '503/5030')).toEqual([]);

    // The pool replaces the dead connections: a read and a write go through again.
    await api.get('/customer?pagesize=1').expect(200);
    await api.post('/lineitem', { order_number: 1, product_number: 1, qty_ordered: 1 }).expect(201);
    expect(await demoRuleViolations(t.dataSource)).toEqual([]);
    // What the dropped connections said is logged, without the database URL's credentials, and
    // the error that began each outage (at debug) without its query's values (a token's hash, a
    // row's columns); the requests refused after it are counted, not logged.
    const records = log.records();
    // Every warning or worse, and the lines that carry an error (lower lines name routes such as `.../password`).
    const told = JSON.stringify(records.filter((r) => (r.level as number) >= 40 || r.err !== undefined));
    expect(told).not.toMatch(/password|postgres:\/\/|mysql:\/\//i);
    const began = records.filter((r) => String(r.msg).startsWith('database unavailable: requests'));
    const stacks = records.filter((r) => JSON.stringify(r).includes('"stack"'));
    if (outcomes['503/5030']) expect(began.length).toBeGreaterThan(0);
    expect(began.length).toBeLessThanOrEqual(outcomes['503/5030'] ?? 0);
    expect(stacks.map((r) => r.level)).toEqual(began.map(() => 20));
    expect(told).not.toMatch(/"parameters":\[|"sql":"(?!\[REDACTED\])/);
    if (target.database === 'postgres') expect(log.text()).toContain('A database connection failed; the pool replaces it');
  }, 120_000);
});

/**
 * The database goes away for a while (a restart, a failover) and comes back: the log says so once
 * each way, with how many requests were answered 503 / 5030 meanwhile, and holds one stack per
 * outage, at debug (it held one per refused request: 4,452 lines over four 4-second outages).
 */
describeEachTarget('a database outage in the log', (target) => {
  if (target.database === 'sqlite') {
    it('has no server to lose', () => undefined);
    return;
  }
  const log = capturedLog('debug');
  let scratch: ScratchDatabase | undefined;
  let proxy: TcpProxy | undefined;
  let t: TestApp | undefined;
  let api: Api;

  beforeAll(async () => {
    scratch = await createScratchDatabase(target.database);
    const server = new URL(scratch.url);
    proxy = await tcpProxy(server.hostname, Number(server.port));
    t = await startTestApp(target, { logger: log.logger, databaseUrl: proxy.urlThrough(scratch.url) });
    api = await apiAs(t, 'demo');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await scratch?.drop();
  });

  it('logs the database lost and back once per outage, counting the refused requests; one stack each, at debug', async () => {
    const outages = 2;
    const refusedPerOutage = 25;
    for (let outage = 1; outage <= outages; outage++) {
      await proxy!.cut();
      const answers = await Promise.all(
        Array.from({ length: refusedPerOutage }, () => api.get('/customer?pagesize=1').then((r) => `${r.status}/${r.body.errorCode}`)),
      );
      expect(answers).toEqual(answers.map(() => '503/5030'));
      await pause(1500);
      await proxy!.restore();
      const until = Date.now() + 10_000;
      while (log.records().filter((r) => String(r.msg).startsWith('database available again')).length < outage && Date.now() < until) {
        await pause(50);
      }
      await api.get('/customer?pagesize=1').expect(200);
    }
    const records = log.records();
    const lost = records.filter((r) => String(r.msg).startsWith('database unavailable: requests'));
    const back = records.filter((r) => String(r.msg).startsWith('database available again'));
    expect(lost.map((r) => [r.level, r.method, r.path])).toEqual(
      Array.from({ length: outages }, () => [50, 'GET', `${t!.base}/customer?pagesize=1`]),
    );
    expect(back.map((r) => [r.level, r.refused])).toEqual(Array.from({ length: outages }, () => [40, refusedPerOutage]));
    const stacks = records.filter((r) => JSON.stringify(r).includes('"stack"'));
    expect(stacks.map((r) => [r.level, r.msg])).toEqual(
      Array.from({ length: outages }, () => [20, 'database unavailable: the error that began the outage']),
    );
    expect(records.filter((r) => r.msg === 'service unavailable')).toEqual([]);
  }, 60_000);
});
