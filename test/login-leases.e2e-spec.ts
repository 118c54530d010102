import { connect, type Socket } from 'node:net';
import { startService, type ServiceProcess } from './support/service-process.js';
import { describeEachTarget } from './support/test-app.js';
import { createScratchDatabase, queryScratch, type ScratchDatabase } from './support/test-databases.js';

const B = '/rest/default/demo/v1';
/** The test providers folder: unruly.js never answers for the user name `hang`. */
const HANGING = { AUTH_PROVIDERS_DIR: 'test/fixtures/providers', AUTH_PROVIDER: 'unruly' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends a whole login on a connection of its own and keeps the connection, which the test then drops. */
function sendLogin(port: number, username: string, password: string): Socket {
  const body = JSON.stringify({ username, password });
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(
    `POST ${B}/@authentication HTTP/1.1\r\nHost: tessera.test\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  return socket;
}

async function login(port: number, username: string, password: string): Promise<{ status: number; ms: number }> {
  const started = Date.now();
  const res = await fetch(`http://127.0.0.1:${port}${B}/@authentication`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  await res.arrayBuffer();
  return { status: res.status, ms: Date.now() - started };
}

interface ThrottleState {
  /** `scope:subject` → logins in progress, as the counters say. */
  pending: Record<string, number>;
  failures: Record<string, number>;
  /** Leases held, with their expiry (epoch ms). */
  leases: Array<{ account: string; address: string; expiresAt: number }>;
}

async function throttleState(database: ScratchDatabase): Promise<ThrottleState> {
  const counters = await queryScratch(database, 'SELECT scope, subject, failures, pending FROM tessera_login_attempts');
  const leases = await queryScratch(database, 'SELECT account, address, expires_at FROM tessera_login_leases');
  const by = (column: string) => Object.fromEntries(counters.map((r) => [`${String(r.scope)}:${String(r.subject)}`, Number(r[column])]));
  return {
    pending: by('pending'),
    failures: by('failures'),
    leases: leases.map((r) => ({ account: String(r.account), address: String(r.address), expiresAt: Number(r.expires_at) })),
  };
}

/** Nothing held: no lease and no login counted as in progress. */
function expectNothingHeld(state: ThrottleState): void {
  expect(state.leases).toEqual([]);
  for (const count of Object.values(state.pending)) expect(count).toBe(0);
}

/**
 * Issue 32 item 2: login slots are leases. A SIGTERM while logins of clients already gone were
 * being checked left their slots counted as in progress, and after the restart the right
 * password waited 10 s and got 429 for up to 15 minutes. Now a client that goes frees its slot,
 * a graceful shutdown gives back whatever is still held, and a slot of a killed process
 * expires on its own.
 */
describeEachTarget('login slots held across a restart', (target) => {
  let database: ScratchDatabase;
  let services: ServiceProcess[] = [];

  beforeEach(async () => {
    database = await createScratchDatabase(target.database);
  });
  afterEach(async () => {
    for (const s of services) s.kill();
    await Promise.all(services.map((s) => s.exited));
    services = [];
    await database.drop();
  });

  const start = async (env: Record<string, string> = {}) => {
    const s = await startService({ DATABASE_URL: database.url, HTTP_ADAPTER: target.adapter, ...env });
    services.push(s);
    return s;
  };

  it('20 logins in flight, their clients gone, SIGTERM, restart: the right password answers 200 at once', async () => {
    // Cost 12: each check takes about 0.2 s on one of two bcrypt jobs, so the 20 are still in flight when their clients go.
    const env = { BCRYPT_COST: '12', SHUTDOWN_GRACE_MS: '20000' };
    const first = await start(env);
    const clients = Array.from({ length: 20 }, () => sendLogin(first.port, 'demo', 'Password1'));
    await sleep(300);
    for (const client of clients) client.destroy();
    await sleep(50);
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
    const second = await start(env);
    const answer = await login(second.port, 'demo', 'Password1');
    expect(answer.status).toBe(200);
    // At once: not after the 10 s a login waits for others in progress.
    expect(answer.ms).toBeLessThan(3000);
    expectNothingHeld(await throttleState(database));
  });
});
