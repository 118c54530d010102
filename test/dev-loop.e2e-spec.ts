/**
 * The dev loop (issue 15): `npm start` compiles only when dist/ is older than the sources, and
 * `npm run dev` recompiles and restarts the service on every change. Both run on a copy of the
 * checkout, so editing its sources cannot disturb the other suites.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './support/free-port.js';

const COPIED = ['src', 'providers', 'scripts', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'ormconfig.ts'];

let checkout: string;

beforeAll(() => {
  checkout = mkdtempSync(join(tmpdir(), 'tessera-dev-loop-'));
  for (const entry of COPIED) cpSync(join(process.cwd(), entry), join(checkout, entry), { recursive: true });
  symlinkSync(join(process.cwd(), 'node_modules'), join(checkout, 'node_modules'));
});

afterAll(() => rmSync(checkout, { recursive: true, force: true }));

function buildIfStale(): string {
  const run = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: checkout, encoding: 'utf8' });
  expect(run.status).toBe(0);
  return run.stdout;
}

const NOT_REBUILDING = 'dist/ is current with the sources; not rebuilding';

describe('npm start builds only when dist/ is stale', () => {
  it('builds a checkout without dist/, then not again until a source changes', () => {
    expect(buildIfStale()).not.toContain(NOT_REBUILDING);
    expect(buildIfStale()).toContain(NOT_REBUILDING);

    writeFileSync(join(checkout, 'src', 'dev-loop-probe.ts'), 'export const probe = 1;\n');
    expect(buildIfStale()).not.toContain(NOT_REBUILDING);
    expect(existsSync(join(checkout, 'dist', 'src', 'dev-loop-probe.js'))).toBe(true);

    // A deleted source takes its compiled file with it.
    rmSync(join(checkout, 'src', 'dev-loop-probe.ts'));
    expect(buildIfStale()).not.toContain(NOT_REBUILDING);
    expect(existsSync(join(checkout, 'dist', 'src', 'dev-loop-probe.js'))).toBe(false);
    expect(buildIfStale()).toContain(NOT_REBUILDING);
  }, 120_000);
});

describe('npm run dev', () => {
  let dev: ChildProcess | undefined;
  let output = '';

  afterEach(() => {
    if (dev && dev.exitCode === null) dev.kill('SIGKILL');
  });

  async function statusOf(url: string): Promise<number> {
    try {
      return (await fetch(url)).status;
    } catch {
      return 0; // not listening (restarting)
    }
  }

  async function waitFor(what: string, check: () => Promise<boolean>, limitMs = 60_000): Promise<void> {
    const deadline = Date.now() + limitMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`npm run dev: ${what} did not happen in ${limitMs} ms. Output:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('restarts the service after each clean compile, keeps it on a compile error, and stops it on SIGTERM', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/rest/default`;
    const projectFile = join(checkout, 'src', 'project', 'project.ts');
    dev = spawn(process.execPath, ['scripts/dev.mjs'], {
      cwd: checkout,
      env: {
        PATH: process.env.PATH ?? '',
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        BCRYPT_COST: '10',
        DATABASE_URL: `sqlite://${join(checkout, 'dev.sqlite')}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    dev.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    dev.stderr?.on('data', (d: Buffer) => (output += d.toString()));

    await waitFor('the demo being served', async () => (await statusOf(`${base}/demo/v1/@heartbeat`)) === 200);

    writeFileSync(
      projectFile,
      "import { demoProject } from '../demo/project.js';\n\nexport const project = { ...demoProject, name: 'shop' };\n",
    );
    await waitFor('the renamed project being served', async () => (await statusOf(`${base}/shop/v1/@heartbeat`)) === 200);
    expect(await statusOf(`${base}/demo/v1/@heartbeat`)).toBe(404);

    writeFileSync(projectFile, 'export const project: number = "not a project";\n');
    await waitFor('the compile error being reported', () => Promise.resolve(output.includes('compile errors; the service keeps running')));
    expect(await statusOf(`${base}/shop/v1/@heartbeat`)).toBe(200);

    const exited = new Promise<number | null>((resolve) => dev?.once('exit', (code) => resolve(code)));
    dev.kill('SIGTERM');
    expect(await exited).toBe(0);
    await waitFor('the service stopping with it', async () => (await statusOf(`${base}/shop/v1/@heartbeat`)) === 0, 10_000);
  }, 180_000);
});
