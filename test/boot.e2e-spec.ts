import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './support/free-port.js';

/** These tests run the built service (npm test builds it first) as a real process. */
const MAIN = join(process.cwd(), 'dist', 'src', 'main.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `whileRunning` gets the port and what the service printed up to "listening". */
function runService(
  env: Record<string, string>,
  whileRunning?: (port: number, stdout: string, child: ChildProcess) => Promise<void>,
  port = 0,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let started = false;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!started && whileRunning && stdout.includes('Tessera is listening')) {
        started = true;
        whileRunning(port, stdout, child).then(
          () => {
            if (!child.killed) child.kill('SIGTERM');
          },
          (e: unknown) => {
            child.kill('SIGKILL');
            reject(e instanceof Error ? e : new Error('whileRunning failed with a value that is not an Error', { cause: e }));
          },
        );
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the service process', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-boot-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses to boot with an invalid PORT and DATABASE_URL, naming both in one message', async () => {
    const run = await runService({ PORT: 'eighty', DATABASE_URL: 'oracle://db/x' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Invalid configuration/);
    expect(run.stderr).toMatch(/PORT/);
    expect(run.stderr).toMatch(/DATABASE_URL/);
    expect(run.stdout).not.toMatch(/listening/);
  });

  it('refuses a misspelled variable rather than ignore it: DATABSE_URL names DATABASE_URL', async () => {
    const run = await runService({ DATABSE_URL: `sqlite:${join(dir, 'typo.sqlite')}` });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'Invalid configuration:\n  - DATABSE_URL: did you mean DATABASE_URL? (Tessera reads no DATABSE_URL; rename it, or unset it if it is not for Tessera)\n',
    );
    expect(run.stdout).toBe('');
  });

  it("refuses a public bind while the demo users have the README's passwords, unless DEMO_USERS_ALLOW_PUBLIC=1", async () => {
    const database = `sqlite:${join(dir, 'public.sqlite')}`;
    const port = await freePort();
    const refused = await runService({ HOST: '0.0.0.0', PORT: String(port), DATABASE_URL: database, BCRYPT_COST: '10' });
    expect(refused.code).toBe(1);
    const lines = refused.stderr.trim().split('\n');
    // The first admin account made by this boot is not lost with it.
    expect(lines[0]).toMatch(/^The first admin account "admin" was created with the password \S+$/);
    expect(lines[1]).toMatch(
      /^Tessera failed to start: The seed users demo, readonly and sam still have their password from the project definition \(the demo's are in the README\), and HOST=0\.0\.0\.0 lets other machines connect: .* or set DEMO_USERS_ALLOW_PUBLIC=1 to start anyway\.$/,
    );
    expect(lines).toHaveLength(2);
    expect(refused.stdout).not.toMatch(/listening/);

    let status = 0;
    const allowed = await runService(
      { HOST: '0.0.0.0', PORT: String(port), DATABASE_URL: database, BCRYPT_COST: '10', DEMO_USERS_ALLOW_PUBLIC: '1' },
      async (p) => {
        status = (await fetch(`http://127.0.0.1:${p}/rest/default/demo/v1/@heartbeat`)).status;
      },
      port,
    );
    expect(status).toBe(200);
    expect(allowed.code).toBe(0);
  });

  it('exits non-zero with one clear line when the database is unreachable', async () => {
    const run = await runService({ DATABASE_URL: 'postgres://tessera:pw@127.0.0.1:1/none', DB_ACQUIRE_TIMEOUT_MS: '2000' });
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('127.0.0.1:1');
    expect(lines[0]).not.toContain('pw');
  });

  it('serves @heartbeat on a fresh SQLite file, then stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    let body: unknown;
    const run = await runService(
      { PORT: String(port), DATABASE_URL: `sqlite:${join(dir, 'nested', 'fresh.sqlite')}` },
      async (p) => {
        const res = await fetch(`http://127.0.0.1:${p}/rest/default/demo/v1/@heartbeat`);
        body = await res.json();
      },
      port,
    );
    expect(body).toEqual({ status: 'OK' });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/shutting down/);
  });

  it('finishes an in-flight request on SIGTERM before it exits', async () => {
    const port = await freePort();
    let status = 0;
    const run = await runService(
      { PORT: String(port), DATABASE_URL: `sqlite:${join(dir, 'graceful.sqlite')}`, BCRYPT_COST: '13' },
      async (p, _stdout, child) => {
        // A login at bcrypt cost 13 takes a good fraction of a second: long enough to be in flight.
        const login = fetch(`http://127.0.0.1:${p}/rest/default/demo/v1/@authentication`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ username: 'demo', password: 'Password1' }),
        });
        await new Promise((r) => setTimeout(r, 50));
        child.kill('SIGTERM');
        status = (await login).status;
      },
      port,
    );
    expect(status).toBe(200);
    expect(run.code).toBe(0);
  });

  it('does not write the auth query parameter to the log', async () => {
    const port = await freePort();
    const run = await runService(
      { PORT: String(port), DATABASE_URL: `sqlite:${join(dir, 'log.sqlite')}` },
      async (p) => {
        await fetch(`http://127.0.0.1:${p}/rest/default/demo/v1/@heartbeat?auth=supersecretkey123:1`);
      },
      port,
    );
    expect(run.stdout).toMatch(/"path":"\/rest\/default\/demo\/v1\/@heartbeat\?auth=\[REDACTED\]"/);
    expect(run.stdout).not.toContain('supersecretkey123');
  });

  it('refuses to boot with an AUTH_PROVIDER that is not in providers/, listing the ones that are', async () => {
    const run = await runService({ DATABASE_URL: `sqlite:${join(dir, 'provider.sqlite')}`, AUTH_PROVIDER: 'my-sso' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /Auth provider providers\/my-sso\.js cannot be used:\n {2}- no module my-sso\.js, my-sso\.mjs or my-sso\.cjs in providers\/ \(the providers there are: ldap, oidc, secret-word\)/,
    );
    expect(run.stdout).not.toMatch(/listening/);
  });

  it('refuses to boot with a provider module that does not parse, naming the file and the line', async () => {
    const run = await runService({
      DATABASE_URL: `sqlite:${join(dir, 'syntax.sqlite')}`,
      AUTH_PROVIDERS_DIR: 'test/fixtures/providers',
      AUTH_PROVIDER: 'syntax-error',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /Auth provider test\/fixtures\/providers\/syntax-error\.js cannot be used:\n {2}- the module does not load: SyntaxError: Unexpected token '\}' \(line 4\): fix the file/,
    );
    expect(run.stdout).not.toMatch(/listening/);
  });

  it('refuses to boot with a provider name that points outside the providers folder', async () => {
    const run = await runService({ DATABASE_URL: `sqlite:${join(dir, 'outside.sqlite')}`, AUTH_PROVIDER: '../src/main' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /Invalid configuration:\n {2}- AUTH_PROVIDER must be default, none, or the name of a module directly inside the providers folder/,
    );
  });

  it('prints a generated first admin password once, at warn level, and it logs in to the admin API', async () => {
    const database = `sqlite:${join(dir, 'admin.sqlite')}`;
    let status = 0;
    const port = await freePort();
    const first = await runService(
      { PORT: String(port), DATABASE_URL: database, BCRYPT_COST: '10' },
      async (p, stdout) => {
        const line = stdout.split('\n').find((l) => l.includes('generated password'))!;
        const password = /generated password (\S+) /.exec(JSON.parse(line).msg)![1]!;
        const res = await fetch(`http://127.0.0.1:${p}/admin/v1/@authentication`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password }),
        });
        status = res.status;
      },
      port,
    );
    const warnings = first.stdout.split('\n').filter((l) => l.includes('generated password'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!).level).toBe(40);
    expect(status).toBe(200);

    const second = await runService({ PORT: String(await freePort()), DATABASE_URL: database, BCRYPT_COST: '10' }, async () => undefined);
    expect(second.stdout).toMatch(/Tessera is listening/);
    expect(second.stdout).not.toMatch(/generated password/);
  });
});
