import { apiAs, type Api } from './support/api.js';
import { capturedLog } from './support/captured-log.js';
import { killerOf } from './support/connection-killer.js';
import { demoRuleViolations } from './support/demo-invariants.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

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
  const log = capturedLog('warn');

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
    // What the dropped connections said is logged, without the database URL's credentials,
    // and the failed queries without their values (a token's hash, a row's columns).
    expect(log.text()).not.toMatch(/password|postgres:\/\/|mysql:\/\//i);
    const failedQueries = log.records().filter((r) => (r.err as { query?: unknown } | undefined)?.query !== undefined);
    if (outcomes['503/5030']) expect(failedQueries.length).toBeGreaterThan(0);
    expect(log.text()).not.toMatch(/"parameters":\[|"sql":"(?!\[REDACTED\])/);
    if (target.database === 'postgres') expect(log.text()).toContain('A database connection failed; the pool replaces it');
  }, 120_000);
});
