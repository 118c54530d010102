import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type ServiceProcess } from './support/service-process.js';
import { createScratchDatabase, type ScratchDatabase } from './support/test-databases.js';
import { testTargets } from './support/test-app.js';

/** Runs the built service until it listens, hands it to `check`, then stops it. */
async function withService(env: Record<string, string>, check: (service: ServiceProcess) => Promise<void>): Promise<void> {
  const service = await startService(env);
  try {
    await check(service);
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
  }
}

function jsonLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The lines of the boot: everything before the first request's line. */
function bootLines(records: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  const last = records.findIndex((r) => String(r.msg).startsWith('Tessera is listening'));
  return records.slice(0, last + 1);
}

describe('boot logs', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-boot-log-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('on a non-terminal: JSON, no route mapping at info, and one banner line last with the generated admin password', async () => {
    await withService({ DATABASE_URL: `sqlite:${join(dir, 'json.sqlite')}` }, async (service) => {
      const boot = bootLines(jsonLines(service.stdout()));
      expect(boot.filter((r) => String(r.msg).includes('Mapped'))).toEqual([]);
      expect(boot.length).toBeLessThanOrEqual(4);
      const banner = boot.at(-1)!;
      expect(banner).toMatchObject({
        level: 40,
        url: `http://127.0.0.1:${service.port}/rest/default/demo/v1`,
        console: `http://127.0.0.1:${service.port}/admin/`,
        docs: `http://127.0.0.1:${service.port}/rest/default/demo/v1/@docs/ui`,
        database: `sqlite:${join(dir, 'json.sqlite')}`,
        adapter: 'express',
        provider: 'default',
        project: 'default/demo/v1',
      });
      expect(banner.msg).toMatch(
        new RegExp(
          `^Tessera is listening on http://127\\.0\\.0\\.1:${service.port}/rest/default/demo/v1 \\(database sqlite:\\S+, adapter express, provider default, project default/demo/v1\\); console http://127\\.0\\.0\\.1:${service.port}/admin/ and Swagger UI http://127\\.0\\.0\\.1:${service.port}/rest/default/demo/v1/@docs/ui ; first admin account "admin" created with the generated password \\S+ ;`,
        ),
      );
      const password = /generated password (\S+) ;/.exec(String(banner.msg))![1]!;
      // Nowhere else: the banner is the one place it is shown.
      expect(service.stdout().split(password)).toHaveLength(2);
      const login = await fetch(`http://127.0.0.1:${service.port}/admin/v1/@authentication`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password }),
      });
      expect(login.status).toBe(200);
    });
  });

  it('moves the route mapping to debug rather than dropping it', async () => {
    await withService(
      { DATABASE_URL: `sqlite:${join(dir, 'debug.sqlite')}`, LOG_LEVEL: 'debug', HTTP_ADAPTER: 'fastify' },
      async (service) => {
        const mapped = jsonLines(service.stdout()).filter((r) =>
          String(r.msg).includes('Mapped {/rest/:account/:project/:version/@heartbeat'),
        );
        expect(mapped).toHaveLength(1);
        expect(mapped[0]!.level).toBe(20);
      },
    );
  });

  it('with LOG_FORMAT=pretty: one readable line an event, the banner last', async () => {
    await withService(
      { DATABASE_URL: `sqlite:${join(dir, 'pretty.sqlite')}`, LOG_FORMAT: 'pretty', TESSERA_ADMIN_PASSWORD: 'Pretty-admin-pw-1' },
      async (service) => {
        const lines = service
          .stdout()
          .split('\n')
          .filter((line) => line !== '');
        for (const line of lines) {
          expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3} (DEBUG|INFO |WARN ) \S/);
          expect(line.startsWith('{')).toBe(false);
        }
        expect(lines.at(-1)).toMatch(
          new RegExp(
            `^\\S+ INFO  Tessera is listening on http://127\\.0\\.0\\.1:${service.port}/rest/default/demo/v1 \\(database sqlite:\\S+, adapter express, provider default, project default/demo/v1\\); console http://127\\.0\\.0\\.1:${service.port}/admin/ and Swagger UI http://127\\.0\\.0\\.1:${service.port}/rest/default/demo/v1/@docs/ui url=http://127\\.0\\.0\\.1:${service.port}/rest/default/demo/v1 `,
          ),
        );
        expect(service.stdout()).not.toContain('Pretty-admin-pw-1');
      },
    );
  });

  // A loop, not describe.each: with neither server configured the list is empty, which describe.each refuses.
  for (const { database } of testTargets().filter((t) => t.adapter === 'express' && t.database !== 'sqlite')) {
    describe(`on ${database}`, () => {
      let scratch: ScratchDatabase;
      beforeAll(async () => {
        scratch = await createScratchDatabase(database);
      });
      afterAll(() => scratch.drop());

      it('names the database in the banner without its password', async () => {
        const url = new URL(scratch.url);
        // PostgreSQL here trusts local users, so any password connects; MariaDB's root has none, so the URL names none.
        const password = 'Db-pw-never-logged-5t6y';
        if (database === 'postgres') url.password = password;
        await withService({ DATABASE_URL: url.toString(), TESSERA_ADMIN_PASSWORD: 'Db-banner-admin-pw-1' }, async (service) => {
          const banner = bootLines(jsonLines(service.stdout())).at(-1)!;
          const safe = new URL(url);
          if (safe.password) safe.password = '***';
          expect(banner).toMatchObject({ level: 30, database: safe.toString(), provider: 'default' });
          expect(String(banner.msg)).toContain(`(database ${safe.toString()}, adapter express`);
          expect(service.stdout()).not.toContain(password);
          expect(service.stdout()).not.toContain('generated password');
        });
      });
    });
  }
});
