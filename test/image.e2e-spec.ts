import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { copiesOf, execForm, healthcheckCommand, instructionOf, readDockerfile } from './support/dockerfile.js';
import { freePort } from './support/free-port.js';
import { makeRuntimeCopy, type RuntimeCopy } from './support/runtime-copy.js';
import { runServiceToExit, startService, type ServiceLaunch } from './support/service-process.js';
import { testTargets } from './support/test-app.js';
import { createScratchDatabase } from './support/test-databases.js';

/**
 * `docker build` cannot run on these machines, so the image is tested in parts: the Dockerfile
 * and docker-compose.yml are read and held to what they must say, and what the image runs, its
 * entry command and its health check, runs here as plain processes, from a folder that holds
 * what the runtime stage holds (production dependencies only).
 */

const CHECKOUT = process.cwd();
const stages = readDockerfile(join(CHECKOUT, 'Dockerfile'));
const [build, runtime] = [stages.at(0)!, stages.at(-1)!];
const entryCommand = [...execForm(instructionOf(runtime, 'ENTRYPOINT')), ...execForm(instructionOf(runtime, 'CMD'))];
const HEALTHCHECK = healthcheckCommand(runtime);

interface Finished {
  code: number | null;
  stderr: string;
  ms: number;
}

/** The HEALTHCHECK command, run as a process in `cwd` with PORT set, to its exit. */
function runHealthcheck(cwd: string, port: number, extraArgs: string[] = []): Promise<Finished> {
  const [command, ...args] = HEALTHCHECK;
  const started = Date.now();
  const child = spawn(command === 'node' ? process.execPath : command!, [...args, ...extraArgs], {
    cwd,
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr, ms: Date.now() - started })));
}

describe('the Dockerfile', () => {
  it('builds on Node 22 with npm ci and runs on a slim Node 22 of the same Debian release', () => {
    expect(stages).toHaveLength(2);
    expect(build.from).toBe('node:22-bookworm');
    expect(runtime.from).toBe('node:22-bookworm-slim');
    expect(build.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args)).toContainEqual(expect.stringMatching(/^npm ci\b/));
    const runtimeRuns = runtime.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    expect(runtimeRuns.join('\n')).not.toMatch(/\bnpm (ci|install)\b/);
    // The build stage leaves only production dependencies in what the runtime stage copies.
    expect(build.instructions.map((i) => i.args).join('\n')).toMatch(/npm prune --omit=dev/);
  });

  it('listens on every interface of the container: Tessera binds loopback unless told, and a published port arrives elsewhere', () => {
    const env = runtime.instructions.filter((i) => i.keyword === 'ENV').map((i) => i.args);
    expect(env.join(' ').split(' ')).toContain('HOST=0.0.0.0');
  });

  it('runs as an unprivileged user, under tini, the same command as `npm start`, with a readiness HEALTHCHECK', () => {
    expect(instructionOf(runtime, 'USER')).toBe('node');
    expect(execForm(instructionOf(runtime, 'ENTRYPOINT'))).toEqual(['/usr/bin/tini', '--']);
    const pkg = JSON.parse(readFileSync(join(CHECKOUT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    // `npm start` is `[NAME=value ...] node [--flags] dist/src/main.js`: the image sets the same variables with ENV.
    const start = pkg.scripts.start!.split(' ');
    const node = start.indexOf('node');
    expect(execForm(instructionOf(runtime, 'CMD'))).toEqual(start.slice(node));
    const env = runtime.instructions.filter((i) => i.keyword === 'ENV').flatMap((i) => i.args.split(' '));
    expect(env).toEqual(expect.arrayContaining(start.slice(0, node)));
    expect(HEALTHCHECK).toEqual(['node', 'scripts/healthcheck.mjs']);
    expect(instructionOf(runtime, 'HEALTHCHECK')).toMatch(/--timeout=\d+s/);
  });

  it('copies from the build context only what exists and .dockerignore lets through', () => {
    const ignored = readFileSync(join(CHECKOUT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', 'data', '.git']));
    const fromContext = stages.flatMap((s) => copiesOf(s)).filter((c) => c.fromStage === undefined);
    for (const source of fromContext.flatMap((c) => c.sources)) {
      expect(existsSync(join(CHECKOUT, source))).toBe(true);
      expect(ignored.filter((pattern) => source === pattern || source.startsWith(`${pattern}/`))).toEqual([]);
    }
  });
});

describe('docker-compose.yml', () => {
  // Jest's own js-yaml (a dependency of a devDependency): enough to read the file here.
  const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };
  interface Service {
    build?: string;
    image?: string;
    profiles?: string[];
    restart?: string;
    volumes?: string[];
    environment?: Record<string, string>;
    ports?: string[];
    healthcheck?: { test: string[] };
    depends_on?: Record<string, { condition: string }>;
  }
  const compose = yaml.load(readFileSync(join(CHECKOUT, 'docker-compose.yml'), 'utf8')) as { services: Record<string, Service> };
  const services = compose.services;

  it('builds Tessera from the Dockerfile and runs it with MySQL 8, or PostgreSQL 16 in the postgres profile', () => {
    expect(Object.keys(services).sort()).toEqual(['mysql', 'postgres', 'tessera', 'tessera-postgres']);
    expect(services.mysql!.image).toMatch(/^mysql:8(\.|$)/);
    expect(services.postgres!.image).toMatch(/^postgres:16(\.|$)/);
    expect(services.postgres!.profiles).toEqual(['postgres']);
    expect(services['tessera-postgres']!.profiles).toEqual(['postgres']);
    expect(services.tessera!.profiles).toBeUndefined();
    expect(services.tessera!.environment!.DATABASE_URL).toMatch(/^mysql:\/\/tessera:\$\{MYSQL_PASSWORD:\?[^}]+\}@mysql:3306\/tessera$/);
    expect(services['tessera-postgres']!.environment!.DATABASE_URL).toMatch(
      /^postgres:\/\/tessera:\$\{POSTGRES_PASSWORD:\?[^}]+\}@postgres:5432\/tessera$/,
    );
  });

  it.each(['tessera', 'tessera-postgres'])(
    '%s: built here, no bind mount, restarted, healthy when ready, started once its database is healthy',
    (name) => {
      const service = services[name]!;
      expect(service.build).toBe('.');
      expect(service.volumes).toBeUndefined();
      expect(service.restart).toBe('unless-stopped');
      expect(service.healthcheck!.test).toEqual(['CMD', ...HEALTHCHECK]);
      const database = name === 'tessera' ? 'mysql' : 'postgres';
      expect(service.depends_on).toEqual({ [database]: { condition: 'service_healthy' } });
      expect(services[database]!.healthcheck!.test.length).toBeGreaterThan(1);
      expect(services[database]!.restart).toBe('unless-stopped');
    },
  );

  it('takes every password from the environment, and refuses to start without one, saying where to set it', () => {
    const passwords = Object.values(services).flatMap((s) =>
      Object.entries(s.environment ?? {}).filter(([name]) => name.includes('PASSWORD')),
    );
    expect(passwords.length).toBeGreaterThanOrEqual(5);
    // `${VAR:?message}`: compose stops with the message when VAR is unset or empty; no placeholder to forget.
    for (const [name, value] of passwords)
      expect(value).toMatch(new RegExp(`^\\$\\{${name}:\\?set ${name}\\b[^}]* in \\.env beside docker-compose\\.yml\\}$`));
    const urls = Object.values(services).flatMap((s) => (s.environment?.DATABASE_URL ? [s.environment.DATABASE_URL] : []));
    for (const url of urls) expect(url).not.toMatch(/:-/);
  });

  it.each([
    ['tessera', '8080'],
    ['tessera-postgres', '8081'],
  ])("%s: binds every interface in its container, publishes on this machine's loopback unless TESSERA_PUBLISH says", (name, port) => {
    const service = services[name]!;
    expect(service.environment!.HOST).toBe('0.0.0.0');
    expect(service.ports).toEqual([`\${TESSERA_PUBLISH:-127.0.0.1}:${port}:8080`]);
    // Passed on when set (.env or the environment); unset, the demo's users keep Tessera from starting on 0.0.0.0.
    expect(service.environment!.DEMO_USERS_ALLOW_PUBLIC).toBe('${DEMO_USERS_ALLOW_PUBLIC:-}');
  });
});

describe('the health check (scripts/healthcheck.mjs) as a plain process', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  /** A server on a free loopback port that answers every request with `status` (or never, for undefined). */
  const serve = async (status: number | undefined, seen: string[] = []) => {
    const port = await freePort();
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (status !== undefined) res.writeHead(status).end();
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    return port;
  };

  it('asks GET /health/ready on PORT and exits 0 on a 200', async () => {
    const seen: string[] = [];
    const port = await serve(200, seen);
    const run = await runHealthcheck(CHECKOUT, port);
    expect(run.code).toBe(0);
    expect(seen).toEqual(['GET /health/ready']);
  });

  it('exits 1 on a 503 (not ready), saying so', async () => {
    const run = await runHealthcheck(CHECKOUT, await serve(503));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('GET /health/ready answered 503');
  });

  it('exits 1 when nothing listens', async () => {
    const run = await runHealthcheck(CHECKOUT, await freePort());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('ECONNREFUSED');
  });

  it('exits 1 within its timeout when the service does not answer', async () => {
    const run = await runHealthcheck(CHECKOUT, await serve(undefined));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no answer within 3000 ms');
    expect(run.ms).toBeLessThan(4500);
  });
});

describe("the image's entry command, run from a copy of its runtime folder (production dependencies only)", () => {
  let copy: RuntimeCopy;
  let launch: ServiceLaunch;

  // Under tini as in the image when this machine has it (Debian: apt-get install tini; .ci/run does).
  const underTini = existsSync(entryCommand[0]!);
  const how = underTini ? 'under tini' : 'without tini, which this machine lacks';

  beforeAll(() => {
    copy = makeRuntimeCopy(CHECKOUT, stages);
    launch = { argv: underTini ? entryCommand : execForm(instructionOf(runtime, 'CMD')), cwd: copy.dir };
  });
  afterAll(() => copy.remove());

  for (const database of [...new Set(testTargets().map((t) => t.database))]) {
    it(`[${database}] serves, passes the health check, and exits 0 on SIGTERM (${how})`, async () => {
      const scratch = await createScratchDatabase(database);
      try {
        const service = await startService({ NODE_ENV: 'production', DATABASE_URL: scratch.url }, 60_000, launch);
        try {
          const res = await fetch(`http://127.0.0.1:${service.port}/health/ready`);
          expect(res.status).toBe(200);
          const healthy = await runHealthcheck(copy.dir, service.port);
          expect(healthy).toMatchObject({ code: 0, stderr: '' });
          service.child.kill('SIGTERM');
          const exit = await service.exited;
          expect(exit).toMatchObject({ code: 0, signal: null });
          expect(service.stdout()).toContain('shutting down');
        } finally {
          service.kill();
        }
      } finally {
        await scratch.drop();
      }
    });
  }

  it('would not start if shipped code imported a devDependency', async () => {
    const main = join(copy.dir, 'dist', 'src', 'main.js');
    const original = readFileSync(main, 'utf8');
    writeFileSync(main, `import 'typescript';\n${original}`);
    try {
      const scratch = await createScratchDatabase('sqlite');
      const run = await runServiceToExit({ DATABASE_URL: scratch.url }, 30_000, launch);
      await scratch.drop();
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("Cannot find package 'typescript'");
    } finally {
      writeFileSync(main, original);
    }
  });
});
