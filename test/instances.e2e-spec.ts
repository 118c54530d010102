import mysql from 'mysql2/promise';
import pg from 'pg';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { MYSQL_BOOT_LOCK_NAME, POSTGRES_BOOT_KEY } from '../src/database/locks/boot-lock.js';
import { authHeader } from './support/auth.js';
import { demoRuleViolations } from './support/demo-invariants.js';
import { startService, type ServiceProcess } from './support/service-process.js';
import { createScratchDatabase, inspectorOf, TEST_MYSQL_URL, TEST_POSTGRES_URL, type ScratchDatabase } from './support/test-databases.js';

const B = '/rest/default/demo/v1';
const ADMIN = { username: 'ops-admin', password: 'ops-admin-password' };
/**
 * TOKEN_CACHE_SECONDS: short where a change made through one instance reaches the others when
 * their cached rows expire; long on PostgreSQL, where they hear of it at once (LISTEN/NOTIFY),
 * so that only the signal can explain a quick refusal there.
 */
const cacheSecondsOn = (kind: Kind): number => (kind === 'postgres' ? 60 : 1);
/** How long the other instances may take to refuse: the cache time, or a moment for the signal. */
const takesEffectWithinMs = (kind: Kind): number => (kind === 'postgres' ? 500 : cacheSecondsOn(kind) * 1000 + 1000);
const INSTANCES = 3;
/** LOGIN_MAX_FAILURES, counted in the database for all the instances together. */
const MAX_FAILURES = 5;

type Kind = 'sqlite' | 'mysql' | 'postgres';

async function count(inspector: DataSource, sql: string): Promise<number> {
  const rows = await inspector.query<Array<{ n: number | string }>>(sql);
  return Number(rows[0]!.n);
}

/** Takes the boot lock on a connection of the test's own, as a booting instance would; `release` gives it up. */
async function holdBootLock(database: ScratchDatabase): Promise<{ release(): Promise<void> }> {
  if (database.kind === 'mysql') {
    const connection = await mysql.createConnection(database.url);
    const [rows] = await connection.query(`SELECT GET_LOCK(${MYSQL_BOOT_LOCK_NAME}, 5) AS got`);
    expect((rows as Array<{ got: number }>)[0]!.got).toBe(1);
    return { release: () => connection.end() };
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query('SELECT pg_advisory_lock($1::bigint)', [POSTGRES_BOOT_KEY]);
  return { release: () => client.end() };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls `attempt` until it answers true or `limitMs` has passed; resolves with the time it took (or rejects). */
async function within(limitMs: number, attempt: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await attempt()) return Date.now() - started;
    if (Date.now() - started > limitMs) throw new Error(`not within ${limitMs} ms`);
    await sleep(50);
  }
}

function instancesSuite(kind: Kind, full: boolean): void {
  describe(`${INSTANCES} instances on one ${kind} database`, () => {
    let database: ScratchDatabase | undefined;
    let inspector: DataSource;
    let services: ServiceProcess[] = [];
    const http = (i: number) => request(`http://127.0.0.1:${services[i]!.port}`);
    const adminKeys: string[] = [];
    const adminHeader = (i: number): [string, string] => ['Authorization', `Bearer ${adminKeys[i]!}`];
    const login = async (i: number, username: string): Promise<string> => {
      const res = await http(i).post(`${B}/@authentication`).send({ username, password: 'Password1' });
      expect(res.status).toBe(200);
      return res.body.apikey as string;
    };

    const environment = () => ({
      DATABASE_URL: database!.url,
      TOKEN_CACHE_SECONDS: String(cacheSecondsOn(kind)),
      TESSERA_ADMIN_USER: ADMIN.username,
      TESSERA_ADMIN_PASSWORD: ADMIN.password,
      WRITE_RETRY_BUDGET_MS: '20000',
      LOGIN_MAX_FAILURES: String(MAX_FAILURES),
    });

    beforeAll(async () => {
      database = await createScratchDatabase(kind);
      // All at once, on an empty database.
      const env = environment();
      const started = await Promise.allSettled(Array.from({ length: INSTANCES }, () => startService(env, 170_000)));
      services = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      const failed = started.find((s) => s.status === 'rejected');
      if (failed) throw failed.reason;
      inspector = await inspectorOf(database);
      for (let i = 0; i < INSTANCES; i++) {
        const res = await http(i).post('/admin/v1/@authentication').send(ADMIN);
        expect(res.status).toBe(200);
        adminKeys.push(res.body.apikey as string);
      }
    }, 90_000);

    afterAll(async () => {
      for (const service of services) service.kill();
      await Promise.all(services.map((s) => s.exited));
      if ((inspector as DataSource | undefined)?.isInitialized) await inspector.destroy();
      await database?.drop();
    });

    it('runs the migrations and the seeds once, and every instance serves', async () => {
      expect(await count(inspector, 'SELECT COUNT(*) AS n FROM customer')).toBe(30);
      expect(await count(inspector, 'SELECT COUNT(*) AS n FROM tessera_users')).toBe(3);
      expect(await count(inspector, 'SELECT COUNT(*) AS n FROM tessera_admin_accounts')).toBe(1);
      const meta = await inspector.query<Array<{ name: string }>>('SELECT name FROM tessera_meta ORDER BY name');
      expect(meta.map((m) => m.name)).toEqual(['checksum_secret', 'installed_at', 'project_seeded_at', 'users_seeded_at']);
      const migrations = await count(inspector, 'SELECT COUNT(*) AS n FROM tessera_migrations');
      const distinct = await count(inspector, 'SELECT COUNT(DISTINCT name) AS n FROM tessera_migrations');
      expect(migrations).toBe(distinct);
      // One instance seeded; the others found it done.
      const logs = services.map((s) => s.stdout());
      expect(logs.filter((log) => log.includes("seeded the project's starting data"))).toHaveLength(1);
      for (let i = 0; i < INSTANCES; i++) {
        const key = await login(i, 'demo');
        const res = await http(i)
          .get(`${B}/customer?pagesize=100`)
          .set(...authHeader(key));
        expect(res.status).toBe(200);
        expect(res.body).toHaveLength(30);
      }
    });

    if (!full) return;
    const howSoon = kind === 'postgres' ? 'at once (LISTEN/NOTIFY)' : 'within TOKEN_CACHE_SECONDS';
    const limitMs = takesEffectWithinMs(kind);

    /** A token every instance has read (and cached), disabled through the first: refused there at once, on the others within `limitMs`. */
    const disableSharedToken = async () => {
      const created = await http(0)
        .post('/admin/v1/tokens')
        .set(...adminHeader(0))
        .send({ label: 'shared', roles: ['Full access'] });
      expect(created.status).toBe(201);
      const key = created.body.apikey as string;
      const refused = (i: number) => async () =>
        (
          await http(i)
            .get(`${B}/customer?pagesize=1`)
            .set(...authHeader(key))
        ).status === 401;
      for (let i = 0; i < INSTANCES; i++) expect(await refused(i)()).toBe(false);
      await http(0)
        .post(`/admin/v1/tokens/${created.body.id as number}/disable`)
        .set(...adminHeader(0))
        .expect(200);
      expect(await refused(0)()).toBe(true);
      for (let i = 1; i < INSTANCES; i++) await within(limitMs, refused(i));
    };

    it(`refuses a token disabled through one instance on every instance ${howSoon}`, disableSharedToken);

    if (kind === 'postgres')
      it('hears the other instances again once its listening connection was cut', async () => {
        const listeners = async () =>
          count(inspector, "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'");
        expect(await listeners()).toBe(INSTANCES);
        await inspector.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'",
        );
        await within(5000, async () => (await listeners()) === INSTANCES);
        for (const service of services) expect(service.stdout()).toContain('lost the connection that hears other instances');
        await disableSharedToken();
      });

    it(`refuses the writes of a user demoted through one instance on every instance ${howSoon}`, async () => {
      const user = { login: 'writer', password: 'Password1', roles: ['Full access'] };
      await http(0)
        .post('/admin/v1/users')
        .set(...adminHeader(0))
        .send(user)
        .expect(201);
      const keys = await Promise.all(Array.from({ length: INSTANCES }, (_, i) => login(i, 'writer')));
      let written = 0;
      // A new name each time: the demo's product names are unique, and a repeated one would answer 409 rather than 201.
      const write = (i: number) =>
        http(i)
          .post(`${B}/product`)
          .set(...authHeader(keys[i]!))
          .send({ name: `by ${i}, ${++written}`, price: 1 });
      for (let i = 0; i < INSTANCES; i++) expect((await write(i)).status).toBe(201);
      // Demoted through the last instance.
      await http(INSTANCES - 1)
        .patch('/admin/v1/users/writer')
        .set(...adminHeader(INSTANCES - 1))
        .send({ roles: ['Read only'] })
        .expect(200);
      expect((await write(INSTANCES - 1)).status).toBe(403);
      for (let i = 0; i < INSTANCES - 1; i++) {
        await within(limitMs, async () => (await write(i)).status === 403);
      }
      // Reads are still allowed to a Read only user.
      for (let i = 0; i < INSTANCES; i++)
        await http(i)
          .get(`${B}/product?pagesize=1`)
          .set(...authHeader(keys[i]!))
          .expect(200);
    });

    it('counts failed logins through every instance against one limit, concurrent guesses included', async () => {
      const guesses = await Promise.all(
        Array.from({ length: MAX_FAILURES + 4 }, (_, n) =>
          http(n % INSTANCES)
            .post(`${B}/@authentication`)
            .send({ username: 'sam', password: `wrong ${n}` }),
        ),
      );
      const outcomes = guesses.map((g) => `${g.status}/${(g.body as { errorCode?: number }).errorCode ?? ''}`).sort();
      expect(outcomes).toEqual([...Array<string>(MAX_FAILURES).fill('401/4013'), ...Array<string>(4).fill('429/4290')]);
      // The account stays throttled on every instance, the right password included.
      for (let i = 0; i < INSTANCES; i++) {
        const res = await http(i).post(`${B}/@authentication`).send({ username: 'sam', password: 'Password1' });
        expect(res.status).toBe(429);
      }
    });

    it('lets exactly one of the same checksummed update through, whichever instances receive it', async () => {
      const keys = await Promise.all(Array.from({ length: INSTANCES }, (_, i) => login(i, 'demo')));
      for (let round = 0; round < 8; round++) {
        const reads = await Promise.all(
          keys.map((key, i) =>
            http(i)
              .get(`${B}/employee/2`)
              .set(...authHeader(key)),
          ),
        );
        const checksums = new Set(reads.map((r) => (r.body as Array<{ '@metadata': { checksum: string } }>)[0]!['@metadata'].checksum));
        // The instances share the checksum secret, so they hand out the same checksum.
        expect(checksums.size).toBe(1);
        const [checksum] = [...checksums];
        const answers = await Promise.all(
          keys.map((key, i) =>
            http(i)
              .put(`${B}/employee/2`)
              .set(...authHeader(key))
              .send({ '@metadata': { checksum }, name: `Round ${round} via ${i}` }),
          ),
        );
        const outcomes = answers.map((a) => `${a.status}/${(a.body as { errorCode?: number }).errorCode ?? ''}`).sort();
        expect(outcomes).toEqual(['200/', ...Array<string>(INSTANCES - 1).fill('409/4090')]);
      }
    });

    it('keeps every aggregate exact under concurrent writes through all the instances', async () => {
      const keys = await Promise.all(Array.from({ length: INSTANCES }, (_, i) => login(i, 'demo')));
      const outcomes = new Map<string, number>();
      const note = (res: { status: number; body: unknown }) => {
        const key = `${res.status}/${(res.body as { errorCode?: number } | undefined)?.errorCode ?? ''}`;
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        return res.status;
      };
      const until = Date.now() + 4000;
      const worker = async (i: number, seed: number) => {
        let n = seed;
        while (Date.now() < until) {
          n += 1;
          const api = http(i);
          const auth = authHeader(keys[i]!);
          const order = 1 + (n % 6);
          const created = await api
            .post(`${B}/lineitem`)
            .set(...auth)
            .send({ order_number: order, product_number: 1 + (n % 4), qty_ordered: 1 + (n % 3) });
          if (note(created) !== 201) continue;
          const row = (created.body as { txsummary: Array<{ lineitem_id?: number }> }).txsummary.find((r) => r.lineitem_id !== undefined);
          const id = row!.lineitem_id!;
          // The update and the delete go through the next instance.
          const other = http((i + 1) % INSTANCES);
          const otherAuth = authHeader(keys[(i + 1) % INSTANCES]!);
          note(
            await other
              .put(`${B}/lineitem/${id}`)
              .set(...otherAuth)
              .send({ '@metadata': { checksum: 'override' }, qty_ordered: 2 + (n % 5) }),
          );
          if (n % 2 === 0) note(await other.delete(`${B}/lineitem/${id}?checksum=override`).set(...otherAuth));
        }
      };
      await Promise.all(Array.from({ length: INSTANCES * 2 }, (_, w) => worker(w % INSTANCES, w * 1000)));
      const done = [...outcomes].filter(([k]) => k.startsWith('2')).reduce((sum, [, v]) => sum + v, 0);
      // Only successes and the refusals concurrency or the credit limit may cause.
      expect([...outcomes.keys()].filter((k) => !['200/', '201/', '409/4093', '422/4220'].includes(k))).toEqual([]);
      expect(done).toBeGreaterThan(30);
      expect(await demoRuleViolations(inspector)).toEqual([]);
    });

    it('waits while another session holds the boot lock, says so, and boots once the lock is free', async () => {
      const holder = await holdBootLock(database!);
      const late = startService(environment(), 60_000);
      let listening = false;
      void late.then(() => (listening = true));
      // Long enough for the new process to reach the lock, even on a busy machine.
      await sleep(4000);
      expect(listening).toBe(false);
      await holder.release();
      const service = await late;
      services.push(service);
      expect(service.stdout()).toContain('waiting for another instance booting on the same database');
      expect(service.stdout()).toContain('another instance finished its boot step');
    });
  });
}

// SQLite: several processes on one file boot once too (the rest of the suite is about server databases).
instancesSuite('sqlite', false);
if (TEST_MYSQL_URL) instancesSuite('mysql', true);
if (TEST_POSTGRES_URL) instancesSuite('postgres', true);
