import { ConfigError, loadConfig } from './app-config.js';

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
});
