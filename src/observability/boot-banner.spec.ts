import { loadConfig } from '../config/app-config.js';
import { bootBanner } from './boot-banner.js';

describe('bootBanner', () => {
  const basePath = '/rest/default/demo/v1';

  it('names the API base, the console, Swagger UI, the database without its password, adapter, provider and project', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://app:S3cret-db-pw@db.example:5432/shop', HOST: '127.0.0.1', PORT: '9000' });
    const banner = bootBanner({ config, basePath });
    expect(banner.level).toBe('info');
    expect(banner.fields).toEqual({
      url: 'http://127.0.0.1:9000/rest/default/demo/v1',
      console: 'http://127.0.0.1:9000/admin/',
      docs: 'http://127.0.0.1:9000/rest/default/demo/v1/@docs/ui',
      database: 'postgres://app:***@db.example:5432/shop',
      adapter: 'express',
      provider: 'default',
      project: 'default/demo/v1',
    });
    expect(banner.message).toBe(
      'Tessera is listening on http://127.0.0.1:9000/rest/default/demo/v1 (database postgres://app:***@db.example:5432/shop, ' +
        'adapter express, provider default, project default/demo/v1); ' +
        'console http://127.0.0.1:9000/admin/ and Swagger UI http://127.0.0.1:9000/rest/default/demo/v1/@docs/ui',
    );
    expect(JSON.stringify(banner)).not.toContain('S3cret-db-pw');
  });

  it('uses PUBLIC_URL when set, and carries a generated admin password as a warning', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://api.example.com/tessera', HTTP_ADAPTER: 'fastify' });
    const banner = bootBanner({ config, basePath, generatedAdmin: { username: 'admin', password: 'Gen3rated-pw' } });
    expect(banner.level).toBe('warn');
    expect(banner.fields).toMatchObject({
      url: 'https://api.example.com/tessera/rest/default/demo/v1',
      console: 'https://api.example.com/tessera/admin/',
      docs: 'https://api.example.com/tessera/rest/default/demo/v1/@docs/ui',
    });
    expect(banner.message).toMatch(
      /^Tessera is listening on https:\/\/api\.example\.com\/tessera\/rest\/default\/demo\/v1 \(database sqlite:/,
    );
    expect(banner.message).toContain(
      '; console https://api.example.com/tessera/admin/ and Swagger UI https://api.example.com/tessera/rest/default/demo/v1/@docs/ui ; ' +
        'first admin account "admin" created with the generated password Gen3rated-pw ; it is shown only this once: sign in to the console',
    );
  });

  it('writes an IPv6 bind in brackets, so its URLs open', () => {
    const banner = bootBanner({ config: loadConfig({ HOST: '::1', PORT: '8080' }), basePath });
    expect(banner.fields.url).toBe('http://[::1]:8080/rest/default/demo/v1');
    expect(banner.fields.console).toBe('http://[::1]:8080/admin/');
  });
});
