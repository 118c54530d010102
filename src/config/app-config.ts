import { isAbsolute, resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { PROJECT_ROOT } from './project-root.js';
import {
  BUILT_IN_PROVIDERS,
  ENVIRONMENT_VARIABLES,
  EnvironmentSchema,
  HTTP_ADAPTERS,
  LOG_FORMATS,
  LOG_LEVELS,
  SECRET_VARIABLES,
} from './environment.schema.js';
import { misspelledVariables } from './unknown-variables.js';
import { parseCorsOrigins } from './cors-origins.js';
import { parseAllowedHosts } from './hosts.js';
import { parseDatabaseUrl, type DatabaseTarget } from './database-url.js';

export type HttpAdapterName = (typeof HTTP_ADAPTERS)[number];
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The validated configuration, grouped by concern. Built once at boot by `loadConfig`. */
export interface AppConfig {
  http: {
    port: number;
    host: string;
    adapter: HttpAdapterName;
    bodyLimitBytes: number;
    trustProxy: boolean;
    /**
     * Origin and optional path prefix every `href`, `next_batch` and the `@docs` server URL
     * start with, e.g. `https://api.example.com` or `https://example.com/tessera` (no trailing
     * slash). Unset: the scheme and host the request names.
     */
    publicUrl?: string;
    /**
     * ALLOWED_HOSTS: the `host[:port]` values (lower case, no final dot; a name alone matches any port) a
     * request's Host may name, besides the bind address; empty when unset. See HostPolicy for when it applies.
     */
    allowedHosts: readonly string[];
    /** The longest request target (path and query) in bytes. */
    maxUrlBytes: number;
    /**
     * CORS_ORIGINS: the origins (e.g. `https://app.example.com`) whose pages may call `/rest` and
     * `/admin/v1` from a browser, serialized as browsers send them; empty: no CORS answers at all.
     */
    corsOrigins: readonly string[];
    /** The longest a request (headers and body) may take to arrive, on both adapters. */
    requestTimeoutMs: number;
    /** How long an idle keep-alive connection stays open, on both adapters. */
    keepAliveTimeoutMs: number;
    shutdownGraceMs: number;
  };
  /** `format` undefined: pretty on a terminal, JSON otherwise (decided where standard output is known, see main.ts). */
  log: { level: LogLevel; format?: LogFormat };
  metrics: {
    /** METRICS_ENABLED: serve /metrics and collect; otherwise every recording is a no-op. */
    enabled: boolean;
    /** METRICS_TOKEN: the bearer token /metrics asks for; undefined: no token. Never logged. */
    token?: string;
  };
  database: DatabaseTarget & {
    poolSize: number;
    acquireTimeoutMs: number;
    statementTimeoutMs: number;
    /** Longest a statement waits for a row lock before it fails (and the write is retried). */
    lockTimeoutMs: number;
    /** How long a conflicting write transaction is retried before it answers 409 / 4093. */
    writeRetryBudgetMs: number;
  };
  /** Overrides of the project definition; undefined means "as the project says". */
  api: {
    account?: string;
    project?: string;
    versions?: string[];
    permitAuthInUrl?: boolean;
    allowFreeFormFilters?: boolean;
    aggregateDefaultOverride?: boolean;
    /** `@docs` answers without a token (api-contract §1: "configurable: public"). */
    docsPublic: boolean;
    /** HTTP_BASIC_AUTH: `Authorization: Basic` is checked through the provider like a login. */
    httpBasicAuth: boolean;
    resourcePrefix: string;
    pageSizeDefault: number;
    pageSizeMax: number;
    /** CHECKSUM_SECRET: the key of row checksums; undefined means the one kept in the database. Never logged. */
    checksumSecret?: string;
    /** EXTENSION_TIMEOUT_MS: longest a project extension may run unless it declares its own limit (then 503 / 5033). */
    extensionTimeoutMs: number;
  };
  auth: {
    tokenLifetimeSeconds: number;
    /**
     * How long this process reuses a token it has read (0: read it on every request). Changes
     * made through this process take effect at once; those made by another instance sharing
     * the database, within this many seconds.
     */
    tokenCacheSeconds: number;
    /** How long a successful HTTP Basic check is reused (see `BasicCredentialCache`); 0: never. */
    basicCacheSeconds: number;
    /** Days an expired or disabled token is kept before the purge deletes it; 0: never purged. */
    tokenRetentionDays: number;
    bcryptCost: number;
    /** Failed logins per account within the window before logins are refused. */
    loginMaxFailures: number;
    /** Failed logins from one client address (any accounts) within the window; higher, as offices share addresses. */
    loginMaxFailuresPerAddress: number;
    loginFailureWindowSeconds: number;
    /** Logins (and password changes) in progress at once, waiting for bcrypt or in it; more get 503 / 5032. */
    loginQueueMax: number;
    /** `default`, `none`, or the name of a module in `providersDir`. */
    provider: string;
    /** Raw JSON text from AUTH_PROVIDER_CONFIG; parsed and validated by the provider loader. */
    providerConfigJson?: string;
    /** Absolute path of the folder custom providers are loaded from (`<project root>/providers` unless AUTH_PROVIDERS_DIR says otherwise). */
    providersDir: string;
    providerTimeoutMs: number;
    adminUser?: string;
    adminPassword?: string;
    /**
     * DEMO_USERS_ALLOW_PUBLIC: start on a bind other than loopback although seed users (the demo's)
     * still have the passwords the project definition, and the README, publish.
     */
    demoUsersAllowPublic: boolean;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Each refusal with the value as it was written (`"0"`, not the number it was read as). */
function describe(errors: ValidationError[], written: Record<string, string | undefined>): string[] {
  return errors.flatMap((e) =>
    Object.values(e.constraints ?? {}).map((message) => {
      const got = SECRET_VARIABLES.has(e.property) ? '(value not shown)' : `(got ${JSON.stringify(written[e.property] ?? e.value)})`;
      return message.startsWith(e.property) ? `${message} ${got}` : `${e.property}: ${message} ${got}`;
    }),
  );
}

/**
 * Validates the whole environment at once and returns the typed configuration.
 * Empty strings count as unset. Throws `ConfigError` listing every invalid variable, and every
 * variable whose name is likely a misspelling of one Tessera reads (which would otherwise be
 * ignored, and its default used, without a word).
 */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const schema = plainToInstance(EnvironmentSchema, present, { exposeDefaultValues: true });
  const problems = describe(validateSync(schema, { stopAtFirstError: true }), present);

  let database: DatabaseTarget | undefined;
  if (!problems.some((p) => p.startsWith('DATABASE_URL'))) {
    try {
      database = parseDatabaseUrl(schema.DATABASE_URL);
    } catch (error) {
      problems.push(`DATABASE_URL: ${(error as Error).message}`);
    }
  }
  if (schema.AUTH_PROVIDER_CONFIG !== undefined && (BUILT_IN_PROVIDERS as readonly string[]).includes(schema.AUTH_PROVIDER)) {
    // Most likely AUTH_PROVIDER was forgotten: booting with the built-in users instead would be a silent fallback.
    problems.push(
      `AUTH_PROVIDER_CONFIG is set, but AUTH_PROVIDER is "${schema.AUTH_PROVIDER}", which takes no configuration: ` +
        'set AUTH_PROVIDER to the custom provider it is meant for, or unset AUTH_PROVIDER_CONFIG',
    );
  }
  let publicUrl: string | undefined;
  if (schema.PUBLIC_URL !== undefined && !problems.some((p) => p.startsWith('PUBLIC_URL'))) {
    try {
      publicUrl = parsePublicUrl(schema.PUBLIC_URL);
    } catch (error) {
      problems.push(`PUBLIC_URL: ${(error as Error).message} (got ${JSON.stringify(schema.PUBLIC_URL)})`);
    }
  }
  const allowedHosts = parsedList('ALLOWED_HOSTS', schema.ALLOWED_HOSTS, parseAllowedHosts, problems);
  const corsOrigins = parsedList('CORS_ORIGINS', schema.CORS_ORIGINS, parseCorsOrigins, problems);
  if (schema.METRICS_TOKEN !== undefined && !schema.METRICS_ENABLED && !problems.some((p) => p.startsWith('METRICS_'))) {
    // Most likely METRICS_ENABLED was forgotten: the token would protect nothing, and nothing would be served.
    problems.push('METRICS_TOKEN is set, but METRICS_ENABLED is not true: set METRICS_ENABLED=true, or unset METRICS_TOKEN');
  }
  // First, and added last: the checks above find a variable's problems by its name's start, which a misspelling may share.
  problems.unshift(...misspelledVariables(present, ENVIRONMENT_VARIABLES));
  if (problems.length > 0 || !database) throw new ConfigError(problems);

  return {
    http: {
      port: schema.PORT,
      host: schema.HOST,
      adapter: schema.HTTP_ADAPTER,
      bodyLimitBytes: schema.BODY_LIMIT_BYTES,
      trustProxy: schema.TRUST_PROXY,
      publicUrl,
      allowedHosts,
      maxUrlBytes: schema.MAX_URL_BYTES,
      corsOrigins,
      requestTimeoutMs: schema.REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: schema.KEEP_ALIVE_TIMEOUT_MS,
      shutdownGraceMs: schema.SHUTDOWN_GRACE_MS,
    },
    log: { level: schema.LOG_LEVEL, format: schema.LOG_FORMAT },
    metrics: { enabled: schema.METRICS_ENABLED, token: schema.METRICS_TOKEN },
    database: {
      ...database,
      poolSize: schema.DB_POOL_SIZE,
      acquireTimeoutMs: schema.DB_ACQUIRE_TIMEOUT_MS,
      statementTimeoutMs: schema.DB_STATEMENT_TIMEOUT_MS,
      lockTimeoutMs: schema.DB_LOCK_TIMEOUT_MS,
      writeRetryBudgetMs: schema.WRITE_RETRY_BUDGET_MS,
    },
    api: {
      account: schema.API_ACCOUNT,
      project: schema.API_PROJECT,
      versions: schema.API_VERSIONS?.split(','),
      permitAuthInUrl: schema.PERMIT_AUTH_IN_URL,
      allowFreeFormFilters: schema.ALLOW_FREE_FORM_FILTERS,
      aggregateDefaultOverride: schema.AGGREGATE_DEFAULT_OVERRIDE,
      docsPublic: schema.DOCS_PUBLIC,
      httpBasicAuth: schema.HTTP_BASIC_AUTH,
      resourcePrefix: schema.RESOURCE_PREFIX,
      pageSizeDefault: schema.PAGE_SIZE_DEFAULT,
      pageSizeMax: Math.max(schema.PAGE_SIZE_MAX, schema.PAGE_SIZE_DEFAULT),
      checksumSecret: schema.CHECKSUM_SECRET,
      extensionTimeoutMs: schema.EXTENSION_TIMEOUT_MS,
    },
    auth: {
      tokenLifetimeSeconds: schema.TOKEN_LIFETIME_SECONDS,
      tokenCacheSeconds: schema.TOKEN_CACHE_SECONDS,
      basicCacheSeconds: schema.HTTP_BASIC_CACHE_SECONDS,
      tokenRetentionDays: schema.TOKEN_RETENTION_DAYS,
      bcryptCost: schema.BCRYPT_COST,
      loginMaxFailures: schema.LOGIN_MAX_FAILURES,
      loginMaxFailuresPerAddress: schema.LOGIN_MAX_FAILURES_PER_ADDRESS,
      loginFailureWindowSeconds: schema.LOGIN_FAILURE_WINDOW_SECONDS,
      loginQueueMax: schema.LOGIN_QUEUE_MAX,
      provider: schema.AUTH_PROVIDER,
      providerConfigJson: schema.AUTH_PROVIDER_CONFIG,
      providersDir: resolveProvidersDir(schema.AUTH_PROVIDERS_DIR),
      providerTimeoutMs: schema.AUTH_PROVIDER_TIMEOUT_MS,
      adminUser: schema.TESSERA_ADMIN_USER,
      adminPassword: schema.TESSERA_ADMIN_PASSWORD,
      demoUsersAllowPublic: schema.DEMO_USERS_ALLOW_PUBLIC,
    },
  };
}

/**
 * A comma-separated list variable as `parse` reads it: empty when unset or already refused by the
 * schema; a problem `parse` reports (naming the bad entry) joins the others.
 */
function parsedList(name: string, value: string | undefined, parse: (value: string) => string[], problems: string[]): string[] {
  if (value === undefined || problems.some((p) => p.startsWith(name))) return [];
  try {
    return parse(value);
  } catch (error) {
    problems.push(`${name}: ${(error as Error).message}`);
    return [];
  }
}

/**
 * PUBLIC_URL as the prefix of every link: an absolute http(s) URL without credentials, query
 * or fragment; a path prefix is kept (without its trailing slash), so links can name the path
 * a proxy serves Tessera under.
 */
export function parsePublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('must be an absolute URL such as https://api.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('must start with http:// or https://');
  if (url.username !== '' || url.password !== '') throw new Error('must not carry a user name or password');
  if (url.search !== '' || value.includes('?')) throw new Error('must not have a query string');
  if (url.hash !== '' || value.includes('#')) throw new Error('must not have a fragment');
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** The one place the providers folder is resolved: relative paths start at the project root, not the working directory. */
export function resolveProvidersDir(setting: string | undefined): string {
  if (setting === undefined) return resolve(PROJECT_ROOT, 'providers');
  return isAbsolute(setting) ? resolve(setting) : resolve(PROJECT_ROOT, setting);
}
