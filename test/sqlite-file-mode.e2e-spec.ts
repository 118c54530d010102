import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authHeader, loginAs } from './support/auth.js';
import { startTestApp, testTargets, type TestApp } from './support/test-app.js';

const modeOf = (path: string): number => statSync(path).mode & 0o777;

/** The file permissions of an embedded database: SQLite targets only, on both adapters. */
describe.each(
  testTargets()
    .filter((t) => t.database === 'sqlite')
    .map((t) => [t.name, t] as const),
)('SQLite files [%s]', (_name, target) => {
  let dir: string;
  let t: TestApp | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-mode-'));
  });
  afterEach(async () => {
    await t?.close();
    t = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it("creates the database, its -wal and -shm and its folders readable by the owner only, through the first boot's migrations", async () => {
    const file = join(dir, 'nested', 'deeper', 'tessera.sqlite');
    t = await startTestApp(target, { env: { DATABASE_URL: `sqlite:${file}` } });
    // A write, so the WAL holds something and every file exists.
    const key = await loginAs(t, 'demo', 'Password1');
    await t
      .http()
      .post(`${t.base}/customer`)
      .set(...authHeader(key))
      .send({ name: 'Mode Co', credit_limit: 1 })
      .expect(201);
    expect(modeOf(file).toString(8)).toBe('600');
    expect(modeOf(`${file}-wal`).toString(8)).toBe('600');
    expect(modeOf(`${file}-shm`).toString(8)).toBe('600');
    expect(modeOf(join(dir, 'nested')).toString(8)).toBe('700');
    expect(modeOf(join(dir, 'nested', 'deeper')).toString(8)).toBe('700');
  });

  it('leaves an existing database file and folder as their owner set them', async () => {
    const file = join(dir, 'existing.sqlite');
    writeFileSync(file, '', { mode: 0o640 });
    t = await startTestApp(target, { env: { DATABASE_URL: `sqlite:${file}` } });
    await t.http().get(`${t.base}/@heartbeat`).expect(200);
    expect(modeOf(file).toString(8)).toBe('640');
  });
});
