import { join } from 'node:path';
import { PROJECT_ROOT } from '../config/project-root.js';
import { ConfigError, loadConfig } from './app-config.js';
import { ENVIRONMENT_VARIABLES } from './environment.schema.js';

/** The problems `loadConfig` refuses `env` with (none: it was accepted). */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
}

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const config = loadConfig({});
    expect(config.http).toMatchObject({ port: 8080, adapter: 'express', bodyLimitBytes: 1048576, trustProxy: false });
    expect(config.database.kind).toBe('sqlite');
    expect(config.database.sqlitePath).toMatch(/data\/tessera\.sqlite$/);
    expect(config.auth).toMatchObject({
      tokenLifetimeSeconds: 86400,
      bcryptCost: 12,
      provider: 'default',
      loginMaxFailures: 10,
      loginMaxFailuresPerAddress: 100,
      loginFailureWindowSeconds: 900,
    });
    expect(config.log.level).toBe('info');
    // Loopback: only this machine can connect until HOST says otherwise.
    expect(config.http.host).toBe('127.0.0.1');
    expect(config.auth.demoUsersAllowPublic).toBe(false);
  });

  it('names every invalid variable in one error', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'oracle://x', LOG_LEVEL: 'loud', BCRYPT_COST: '4' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'BCRYPT_COST']) expect(message).toContain(name);
    expect((error as ConfigError).problems).toHaveLength(4);
  });

  it('takes a CHECKSUM_SECRET of 32 characters or more, and never shows a refused one', () => {
    const secret = 'f3a9c2e1b7d64a5e8c0f1d2b3a4c5e6f';
    expect(loadConfig({ CHECKSUM_SECRET: secret }).api.checksumSecret).toBe(secret);
    expect(loadConfig({}).api.checksumSecret).toBeUndefined();
    for (const weak of ['short-but-random-7Qx', 'ab'.repeat(20), 'passwordpasswordpasswordpassword']) {
      let error: unknown;
      try {
        loadConfig({ CHECKSUM_SECRET: weak });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain('CHECKSUM_SECRET');
      expect((error as Error).message).not.toContain(weak);
    }
  });

  it('bounds row-lock waits and write retries: 5 s and 10 s by default, 0 turning retries off', () => {
    expect(loadConfig({}).database).toMatchObject({ lockTimeoutMs: 5000, writeRetryBudgetMs: 10000 });
    expect(loadConfig({ DB_LOCK_TIMEOUT_MS: '250', WRITE_RETRY_BUDGET_MS: '0' }).database).toMatchObject({
      lockTimeoutMs: 250,
      writeRetryBudgetMs: 0,
    });
    expect(() => loadConfig({ DB_LOCK_TIMEOUT_MS: '0', WRITE_RETRY_BUDGET_MS: '-1' })).toThrow(
      /DB_LOCK_TIMEOUT_MS[\s\S]*WRITE_RETRY_BUDGET_MS/,
    );
  });

  it('reads LOG_FORMAT, METRICS_ENABLED and METRICS_TOKEN, never showing the token', () => {
    expect(loadConfig({}).log).toEqual({ level: 'info', format: undefined });
    expect(loadConfig({}).metrics).toEqual({ enabled: false, token: undefined });
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).log.format).toBe('pretty');
    const token = 'scrape-token-0123456789abcdef';
    expect(loadConfig({ METRICS_ENABLED: 'true', METRICS_TOKEN: token }).metrics).toEqual({ enabled: true, token });
    expect(() => loadConfig({ LOG_FORMAT: 'fancy', METRICS_ENABLED: 'sometimes' })).toThrow(/LOG_FORMAT[\s\S]*METRICS_ENABLED/);
    for (const env of [{ METRICS_ENABLED: 'true', METRICS_TOKEN: 'short-secret' }, { METRICS_TOKEN: token }]) {
      let error: unknown;
      try {
        loadConfig(env);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain('METRICS_');
      expect((error as Error).message).not.toContain(env.METRICS_TOKEN);
    }
  });

  it('treats empty strings as unset and parses booleans and numbers', () => {
    const config = loadConfig({ PORT: '', TRUST_PROXY: 'true', HTTP_ADAPTER: 'fastify', BODY_LIMIT_BYTES: '2048' });
    expect(config.http).toMatchObject({ port: 8080, trustProxy: true, adapter: 'fastify', bodyLimitBytes: 2048 });
  });

  it('rejects a port out of range and a non-boolean flag', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ TRUST_PROXY: 'maybe' })).toThrow(/TRUST_PROXY/);
  });

  it('keeps @docs behind a token unless DOCS_PUBLIC says otherwise', () => {
    expect(loadConfig({}).api.docsPublic).toBe(false);
    expect(loadConfig({ DOCS_PUBLIC: 'true' }).api.docsPublic).toBe(true);
    expect(() => loadConfig({ DOCS_PUBLIC: 'sometimes' })).toThrow(/DOCS_PUBLIC/);
  });

  it('splits API_VERSIONS', () => {
    expect(loadConfig({ API_VERSIONS: 'v1,v2' }).api.versions).toEqual(['v1', 'v2']);
  });

  describe('PUBLIC_URL and MAX_URL_BYTES', () => {
    it('leaves links to the request without PUBLIC_URL, and allows 8 KiB URLs by default', () => {
      expect(loadConfig({}).http).toMatchObject({ publicUrl: undefined, maxUrlBytes: 8192 });
    });

    it.each([
      ['https://api.example.com', 'https://api.example.com'],
      ['https://api.example.com/', 'https://api.example.com'],
      ['http://10.0.0.5:8080', 'http://10.0.0.5:8080'],
      ['https://API.Example.com:443/', 'https://api.example.com'],
      ['https://example.com/tessera/', 'https://example.com/tessera'],
      ['https://example.com/a/b//', 'https://example.com/a/b'],
      ['http://[2001:db8::1]:8080', 'http://[2001:db8::1]:8080'],
    ])('takes PUBLIC_URL %s as %s', (value, expected) => {
      expect(loadConfig({ PUBLIC_URL: value }).http.publicUrl).toBe(expected);
    });

    it.each([
      ['api.example.com', /absolute URL/],
      ['/tessera', /absolute URL/],
      ['ftp://api.example.com', /http:\/\/ or https:\/\//],
      ['https://user:pw@api.example.com', /user name or password/],
      ['https://api.example.com/?x=1', /query string/],
      ['https://api.example.com/?', /query string/],
      ['https://api.example.com/#top', /fragment/],
    ])('refuses PUBLIC_URL %s', (value, problem) => {
      expect(() => loadConfig({ PUBLIC_URL: value })).toThrow(problem);
      expect(() => loadConfig({ PUBLIC_URL: value })).toThrow(/PUBLIC_URL/);
    });

    it('takes MAX_URL_BYTES from 1 KiB to 64 KiB', () => {
      expect(loadConfig({ MAX_URL_BYTES: '16384' }).http.maxUrlBytes).toBe(16384);
      expect(() => loadConfig({ MAX_URL_BYTES: '100' })).toThrow(/MAX_URL_BYTES/);
      expect(() => loadConfig({ MAX_URL_BYTES: '1000000' })).toThrow(/MAX_URL_BYTES/);
    });
  });

  it('bounds request arrival at 30 s and keeps idle connections 65 s by default, both configurable', () => {
    expect(loadConfig({}).http).toMatchObject({ requestTimeoutMs: 30_000, keepAliveTimeoutMs: 65_000 });
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '5000', KEEP_ALIVE_TIMEOUT_MS: '5000' }).http).toMatchObject({
      requestTimeoutMs: 5000,
      keepAliveTimeoutMs: 5000,
    });
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow(/REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig({ KEEP_ALIVE_TIMEOUT_MS: '999' })).toThrow(/KEEP_ALIVE_TIMEOUT_MS/);
  });

  describe('auth providers', () => {
    it('finds the providers folder under the project root, whatever the working directory', () => {
      expect(loadConfig({}).auth.providersDir).toBe(join(PROJECT_ROOT, 'providers'));
      expect(loadConfig({ AUTH_PROVIDERS_DIR: 'test/fixtures/providers' }).auth.providersDir).toBe(
        join(PROJECT_ROOT, 'test', 'fixtures', 'providers'),
      );
      expect(loadConfig({ AUTH_PROVIDERS_DIR: '/srv/providers' }).auth.providersDir).toBe('/srv/providers');
    });

    it.each(['../evil', 'a/b', 'a\\b', '..', '.hidden', 'x..y'])('refuses the provider name %j: only plain file names', (name) => {
      expect(() => loadConfig({ AUTH_PROVIDER: name })).toThrow(
        /AUTH_PROVIDER must be default, none, or the name of a module directly inside the providers folder/,
      );
    });

    it('accepts names of modules such as secret-word and my_sso.v2', () => {
      expect(loadConfig({ AUTH_PROVIDER: 'secret-word' }).auth.provider).toBe('secret-word');
      expect(loadConfig({ AUTH_PROVIDER: 'my_sso.v2' }).auth.provider).toBe('my_sso.v2');
    });

    it('refuses AUTH_PROVIDER_CONFIG for a built-in provider rather than ignore it', () => {
      expect(() => loadConfig({ AUTH_PROVIDER_CONFIG: '{"secret":"x"}' })).toThrow(
        /AUTH_PROVIDER_CONFIG is set, but AUTH_PROVIDER is "default"/,
      );
      expect(() => loadConfig({ AUTH_PROVIDER: 'none', AUTH_PROVIDER_CONFIG: '{}' })).toThrow(ConfigError);
      expect(loadConfig({ AUTH_PROVIDER: 'ldap', AUTH_PROVIDER_CONFIG: '{}' }).auth.providerConfigJson).toBe('{}');
    });
  });

  describe('token retention', () => {
    it('keeps expired and disabled tokens 30 days by default; 0 (never purged) to 3650', () => {
      expect(loadConfig({}).auth.tokenRetentionDays).toBe(30);
      expect(loadConfig({ TOKEN_RETENTION_DAYS: '0' }).auth.tokenRetentionDays).toBe(0);
      for (const bad of ['-1', '3651', '1.5']) expect(() => loadConfig({ TOKEN_RETENTION_DAYS: bad })).toThrow(/TOKEN_RETENTION_DAYS/);
    });
  });

  describe('login queue', () => {
    it('admits 64 logins in progress by default, and takes 1 to 100,000', () => {
      expect(loadConfig({}).auth.loginQueueMax).toBe(64);
      expect(loadConfig({ LOGIN_QUEUE_MAX: '1' }).auth.loginQueueMax).toBe(1);
      for (const bad of ['0', '-1', '100001', 'many']) expect(() => loadConfig({ LOGIN_QUEUE_MAX: bad })).toThrow(/LOGIN_QUEUE_MAX/);
    });
  });

  describe('misspelled variables', () => {
    it('refuses DATABSE_URL naming DATABASE_URL, in the one message with every other problem', () => {
      const problems = problemsOf({ DATABSE_URL: 'mysql://db/shop', PORT: 'abc', LOG_LEVLE: 'debug' });
      expect(problems).toEqual([
        'DATABSE_URL: did you mean DATABASE_URL? (Tessera reads no DATABSE_URL; rename it, or unset it if it is not for Tessera)',
        'LOG_LEVLE: did you mean LOG_LEVEL? (Tessera reads no LOG_LEVLE; rename it, or unset it if it is not for Tessera)',
        'PORT must be an integer port 1–65535 (got "abc")',
      ]);
      expect(() => loadConfig({ DATABSE_URL: 'x' })).toThrow(/Invalid configuration:\n {2}- DATABSE_URL: did you mean DATABASE_URL\?/);
    });

    it('takes a name in another case for the variable it spells, and never shows the value', () => {
      expect(problemsOf({ port: '9000', Database_Url: 'sqlite:./secret-file.sqlite' })).toEqual([
        expect.stringMatching(/^Database_Url: did you mean DATABASE_URL\?/),
        expect.stringMatching(/^port: did you mean PORT\?/),
      ]);
      expect(problemsOf({ Database_Url: 'sqlite:./secret-file.sqlite' }).join('\n')).not.toContain('secret-file');
    });

    it("leaves alone what a machine's environment holds besides Tessera's variables", () => {
      const machine = Object.fromEntries(
        [
          ...['PATH', 'HOME', 'PWD', 'OLDPWD', 'USER', 'SHELL', 'TERM', 'LANG', 'HOSTNAME', 'HOSTTYPE', 'LOGNAME', 'TZ', '_'],
          ...['NODE_ENV', 'NODE_OPTIONS', 'INIT_CWD', 'npm_config_port', 'npm_package_name', 'npm_lifecycle_event'],
          ...['CI', 'GITHUB_ACTIONS', 'GITHUB_TOKEN', 'RUNNER_TEMP', 'JEST_WORKER_ID'],
          ...['PGHOST', 'PGPORT', 'PGUSER', 'PGDATABASE', 'PGPASSWORD', 'MYSQL_HOST', 'MYSQL_PWD', 'MYSQL_TCP_PORT'],
          ...['MYSQL_PASSWORD', 'MYSQL_ROOT_PASSWORD', 'POSTGRES_PASSWORD', 'TESSERA_PUBLISH', 'TEST_MYSQL_URL', 'TEST_POSTGRES_URL'],
          ...['DB_HOST', 'DB_PORT', 'DB_USER', 'DB_NAME', 'DB_PASSWORD', 'DATABASE_HOST', 'DATABASE_USER', 'DATABASE_NAME'],
          ...['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'DOCKER_HOST', 'API_KEY', 'API_URL', 'JWT_SECRET', 'LOG_FILE'],
          // Kubernetes' service links, for services named tessera and tessera-db.
          ...['KUBERNETES_SERVICE_HOST', 'KUBERNETES_PORT', 'TESSERA_PORT', 'TESSERA_SERVICE_HOST', 'TESSERA_PORT_8080_TCP_ADDR'],
          'TESSERA_DB_SERVICE_HOST',
        ].map((name) => [name, 'x']),
      );
      expect(problemsOf(machine)).toEqual([]);
    });

    it('judges short names by one edit only: HOME, PWD and PATH are not HOST or PORT', () => {
      expect(problemsOf({ HOME: '/root', PWD: '/app', PATH: '/bin', POSTS: 'x', PGPORT: '5432' })).toEqual([]);
      expect(problemsOf({ PROT: '80', HOSTT: 'x' })).toEqual([
        expect.stringMatching(/^HOSTT: did you mean HOST\?/),
        expect.stringMatching(/^PROT: did you mean PORT\?/),
      ]);
    });

    it('counts an empty variable as unset, as it does for known ones', () => {
      expect(problemsOf({ DATABSE_URL: '' })).toEqual([]);
    });
  });

  describe('what each variable expects', () => {
    it("says an integer variable's range whatever is wrong with its value", () => {
      for (const value of ['abc', '0', '70000', '80.5'])
        expect(problemsOf({ PORT: value })).toEqual([`PORT must be an integer port 1–65535 (got ${JSON.stringify(value)})`]);
      expect(problemsOf({ REQUEST_TIMEOUT_MS: '10' })).toEqual([
        'REQUEST_TIMEOUT_MS must be an integer 1000–3600000 (milliseconds) (got "10")',
      ]);
      expect(problemsOf({ METRICS_ENABLED: 'sometimes' })).toEqual([
        'METRICS_ENABLED must be true or false (also 1/0, yes/no, on/off) (got "sometimes")',
      ]);
      expect(problemsOf({ TESSERA_ADMIN_PASSWORD: 'short' })).toEqual(['TESSERA_ADMIN_PASSWORD must be 8 to 72 characters (got "short")']);
    });

    it.each(ENVIRONMENT_VARIABLES)('%s: every refusal says what it expects, never only which bound was broken', (name) => {
      const problems = ['abc', '-1', '0', '99999999999', '1.5', 'x'.repeat(20_000)].flatMap((value) =>
        problemsOf({ [name]: value, ...(name === 'METRICS_TOKEN' ? { METRICS_ENABLED: 'true' } : {}) }),
      );
      for (const problem of problems) {
        expect(problem).toMatch(new RegExp(`^${name}\\b`));
        expect(problem).not.toMatch(
          /must not be (greater|less) than|must be an integer number|must be a boolean|or equal to|must be a string/,
        );
      }
    });

    it('reads DEMO_USERS_ALLOW_PUBLIC as a flag', () => {
      expect(loadConfig({ DEMO_USERS_ALLOW_PUBLIC: '1' }).auth.demoUsersAllowPublic).toBe(true);
      expect(loadConfig({ DEMO_USERS_ALLOW_PUBLIC: 'false' }).auth.demoUsersAllowPublic).toBe(false);
    });
  });
});
