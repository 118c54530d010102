import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { Test, type TestingModuleBuilder } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import request from 'supertest';
import { createApp, type AppFactory } from '../../src/bootstrap.js';
import { createLogger } from '../../src/observability/logger.js';
import { Clock } from '../../src/common/clock.js';
import { AUTH_PROVIDER, type AuthProvider } from '../../src/provider/auth-provider.js';
import { PasswordHasher } from '../../src/login/password-hasher.js';
import type { ProjectDefinition } from '../../src/project-definition.js';
import { loadConfig, type AppConfig, type HttpAdapterName } from '../../src/config/app-config.js';
import { demoProject } from '../../src/demo/project.js';
import { suiteResource } from './suite-resource.js';
import { createScratchDatabase, TEST_MYSQL_URL, TEST_POSTGRES_URL, type ScratchDatabase } from './test-databases.js';

export interface TestTarget {
  /** e.g. "sqlite/express" */
  name: string;
  database: 'sqlite' | 'mysql' | 'postgres';
  adapter: HttpAdapterName;
}

/**
 * The whole matrix (`npm run test:all`, what CI runs): every suite on both HTTP adapters. Otherwise
 * (`npm test`) a suite runs on Express, the default adapter, unless it says the adapter matters.
 */
export const FULL_MATRIX = process.env.TEST_MATRIX === 'all';

export interface TargetOptions {
  /**
   * The suite checks what the HTTP edge does (parsing of URLs, queries and bodies, headers, routing,
   * aborted connections): it runs on both adapters in every run, not only in the whole matrix.
   */
  adapters?: 'both';
}

/** Every database this run can reach, on the adapters this run covers for the suite (see FULL_MATRIX). */
export function testTargets(options: TargetOptions = {}): TestTarget[] {
  const databases: TestTarget['database'][] = ['sqlite'];
  if (TEST_MYSQL_URL) databases.push('mysql');
  if (TEST_POSTGRES_URL) databases.push('postgres');
  const adapters: HttpAdapterName[] = FULL_MATRIX || options.adapters === 'both' ? ['express', 'fastify'] : ['express'];
  return databases.flatMap((database) => adapters.map((adapter) => ({ name: `${database}/${adapter}`, database, adapter })));
}

/** Runs the suite once per target (database × adapter, see `testTargets`). */
export function describeEachTarget(title: string, suite: (target: TestTarget) => void, options: TargetOptions = {}): void {
  for (const target of testTargets(options)) {
    describe(`${title} [${target.name}]`, () => suite(target));
  }
}

/** `describeEachTarget` for a suite of the HTTP edge, where the adapter matters: both adapters in every run. */
export function describeEachTargetOnBothAdapters(title: string, suite: (target: TestTarget) => void): void {
  describeEachTarget(title, suite, { adapters: 'both' });
}

/** The first admin account every test app gets (see `adminToken` in ./auth.ts). */
export const TEST_ADMIN_USER = 'test-admin';
export const TEST_ADMIN_PASSWORD = 'test-admin-password';

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  dataSource: DataSource;
  /** The API base path, e.g. /rest/default/demo/v1 */
  base: string;
  http(): ReturnType<typeof request>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  project?: ProjectDefinition;
  /** Extra environment variables, validated like the real ones. */
  env?: Record<string, string>;
  /** The service's clock, e.g. a `ManualClock` to move time forward without sleeping. */
  clock?: Clock;
  /** The service's logger (default: silent unless LOG_LEVEL says otherwise), e.g. one from `capturedLogger`. */
  logger?: Logger;
  /** Boot on this database (e.g. one a suite built by hand) instead of a scratch one; it is left as it is on close. */
  databaseUrl?: string;
  /**
   * The authentication provider, instead of the one AUTH_PROVIDER selects (`overrideProvider(AUTH_PROVIDER)`): a
   * fake written in the suite (`fakeProvider`), for suites about what surrounds a provider, not about loading one.
   */
  authProvider?: AuthProvider;
  /**
   * bcrypt's cost in the application's `PasswordHasher` (`overrideProvider(PasswordHasher)`), below the 10 that
   * BCRYPT_COST allows: `LOW_BCRYPT_COST` for a suite that hashes often and times no login.
   */
  bcryptCost?: number;
  /** Replaces providers of the application (`overrideProvider`, `overrideGuard`, `overrideModule`) before it compiles. */
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
}

/** bcrypt's least cost: a hash in about a millisecond, where BCRYPT_COST's floor of 10 takes 60 to 100. */
export const LOW_BCRYPT_COST = 4;

/**
 * The application as the service builds it (`createApp`: adapter, body parsing, front door), its
 * module compiled by @nestjs/testing: `Test.createTestingModule`, the overrides (the clock, the
 * auth provider and the password hasher first, then the suite's own), `createNestApplication`.
 * Another instance on a suite's database is one of these on `t.config`: a connection of its own,
 * closed with it.
 */
export function createTestApplication(
  config: AppConfig,
  project: ProjectDefinition,
  options: Pick<TestAppOptions, 'clock' | 'logger' | 'authProvider' | 'bcryptCost' | 'override'> = {},
): Promise<INestApplication> {
  const { clock, authProvider, bcryptCost, override } = options;
  const build: AppFactory = async (module, adapter, appOptions) => {
    let builder = Test.createTestingModule({ imports: [module] });
    if (clock) builder = builder.overrideProvider(Clock).useValue(clock);
    if (authProvider) builder = builder.overrideProvider(AUTH_PROVIDER).useValue(authProvider);
    if (bcryptCost !== undefined) {
      // The configuration's cost only for the hasher: past the environment's validation, which keeps production at 10 or more.
      const hasherConfig = { ...config, auth: { ...config.auth, bcryptCost } };
      builder = builder.overrideProvider(PasswordHasher).useValue(new PasswordHasher(hasherConfig));
    }
    if (override) builder = override(builder);
    const moduleRef = await builder.compile();
    return moduleRef.createNestApplication(adapter, appOptions);
  };
  return createApp({ config, project, logger: options.logger ?? createLogger(config.log.level) }, build);
}

/** Boots Tessera on a database of its own (created here, dropped on close), or on `options.databaseUrl`. */
export async function startTestApp(target: TestTarget, options: TestAppOptions = {}): Promise<TestApp> {
  const scratch: ScratchDatabase = options.databaseUrl
    ? { kind: target.database, url: options.databaseUrl, drop: async () => undefined }
    : await createScratchDatabase(target.database);
  const project = options.project ?? demoProject;
  const config = loadConfig({
    DATABASE_URL: scratch.url,
    HTTP_ADAPTER: target.adapter,
    // Suites reach the app on 127.0.0.1 and name hosts of their own (tessera.test): the development setting (and the
    // default, said here so no suite leans on it), where any valid Host is answered. A suite about a public bind sets HOST
    // itself; the seed users' published passwords are refused on one only by main.ts, which test apps do not run.
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    BCRYPT_COST: '10',
    DB_POOL_SIZE: '5',
    TESSERA_ADMIN_USER: TEST_ADMIN_USER,
    TESSERA_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    ...options.env,
  });
  let app: INestApplication;
  try {
    app = await createTestApplication(config, project, options);
  } catch (error) {
    await scratch.drop();
    throw error;
  }
  const dataSource = app.get<DataSource>(getDataSourceToken());
  const base = `/rest/${config.api.account ?? project.account}/${config.api.project ?? project.name}/${(config.api.versions ?? project.versions)[0]}`;
  return {
    app,
    config,
    dataSource,
    base,
    http: () => request(app.getHttpServer()),
    close: async () => {
      // TypeOrmModule closes the data source with the application.
      await app.close();
      await scratch.drop();
    },
  };
}

/**
 * A second instance of the demo service on the test app's database, as another process on the
 * same database would be (a connection of its own, closed with it), on the same clock.
 */
export function anotherInstance(t: TestApp, clock?: Clock): Promise<INestApplication> {
  return createTestApplication(t.config, demoProject, { clock, logger: createLogger('silent') });
}

/** The error a boot of `project` stops with, or undefined when it boots (the app is closed again then). */
export function bootFailureOf(target: TestTarget, project: ProjectDefinition): Promise<Error | undefined> {
  return startTestApp(target, { project }).then(
    async (app) => {
      await app.close();
      return undefined;
    },
    (error: unknown) => error as Error,
  );
}

/**
 * Boots a test app for the enclosing suite and closes it after the suite (if it booted), handing
 * it to `ready` first: `suiteApp(target, { clock }, (app) => { t = app; })`. `ready` may be async
 * and do the suite's setup (log in, seed rows); the app is closed even when that fails. Options
 * that depend on something an earlier hook starts (a directory server's URL) come from a function,
 * called when the app boots.
 */
export function suiteApp(
  target: TestTarget,
  options: TestAppOptions | (() => TestAppOptions),
  ready: (t: TestApp) => void | Promise<void>,
): void {
  suiteResource(
    () => startTestApp(target, typeof options === 'function' ? options() : options),
    (t) => t.close(),
    ready,
  );
}
