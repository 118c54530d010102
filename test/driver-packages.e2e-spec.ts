import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from './support/service-process.js';
import { createScratchDatabase, TEST_MYSQL_URL, TEST_POSTGRES_URL, type ScratchDatabase } from './support/test-databases.js';

/** Preloaded into the service: at exit it writes the files of every CommonJS module it loaded (pg and mysql2 are CommonJS). */
const PROBE = `process.on('exit', () => require('node:fs').writeFileSync(process.env.PACKAGES_PROBE_FILE, JSON.stringify(Object.keys(require.cache))));`;

const MAIN = join(process.cwd(), 'dist', 'src', 'main.js');

/** The packages under node_modules that `files` come from (`@scope/name` or `name`). */
function packagesOf(files: string[]): Set<string> {
  const names = files
    .filter((file) => file.includes('/node_modules/'))
    .map((file) => {
      const [first, second] = file.slice(file.lastIndexOf('/node_modules/') + '/node_modules/'.length).split('/');
      return first!.startsWith('@') ? `${first}/${second}` : first!;
    });
  return new Set(names);
}

const cases: Array<{ kind: 'sqlite' | 'mysql' | 'postgres'; loads: string[]; neverLoads: string[] }> = [
  { kind: 'sqlite', loads: ['better-sqlite3'], neverLoads: ['pg', 'mysql2'] },
];
if (TEST_MYSQL_URL) cases.push({ kind: 'mysql', loads: ['mysql2'], neverLoads: ['pg', 'better-sqlite3'] });
if (TEST_POSTGRES_URL) cases.push({ kind: 'postgres', loads: ['pg'], neverLoads: ['mysql2', 'better-sqlite3'] });

/**
 * A service keeps every package it loads from boot to exit: pg and mysql2 are some 2.5 MB of heap
 * each (and more RSS), so the driver of a database not in use is never loaded. pg and mysql2 had
 * been imported at the top of Tessera's own modules, and every service loaded both.
 */
describe.each(cases)('the driver packages a service on $kind loads', ({ kind, loads, neverLoads }) => {
  let dir: string;
  let database: ScratchDatabase | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-packages-'));
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`are its own (${loads.join(', ')}), and never ${neverLoads.join(' or ')}`, async () => {
    const probe = join(dir, 'probe.cjs');
    const report = join(dir, 'loaded.json');
    writeFileSync(probe, PROBE);
    database = await createScratchDatabase(kind);
    const env = { DATABASE_URL: database.url, PACKAGES_PROBE_FILE: report };
    const service = await startService(env, 60_000, { argv: [process.execPath, '-r', probe, MAIN], cwd: process.cwd() });
    // A login and a read through the database, so that what is loaded on first use is loaded.
    const base = `http://127.0.0.1:${service.port}/rest/default/demo/v1`;
    const login = await fetch(`${base}/@authentication`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo', password: 'Password1' }),
    });
    expect(login.status).toBe(200);
    const { apikey } = (await login.json()) as { apikey: string };
    const read = await fetch(`${base}/customer?pagesize=1`, { headers: { authorization: `CALiveAPICreator ${apikey}:1` } });
    expect(read.status).toBe(200);
    service.child.kill('SIGTERM');
    expect((await service.exited).code).toBe(0);

    const loaded = packagesOf(JSON.parse(readFileSync(report, 'utf8')) as string[]);
    for (const name of loads) expect(loaded).toContain(name);
    for (const name of neverLoads) expect(loaded).not.toContain(name);
  }, 90_000);
});
