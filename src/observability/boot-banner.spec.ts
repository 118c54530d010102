import { loadConfig } from '../config/app-config.js';
import { bootBanner } from './boot-banner.js';

describe('bootBanner', () => {
  const basePath = '/rest/default/demo/v1';

  it('names the URL, the database without its password, adapter, provider and project, starting "Tessera is listening"', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://app:S3cret-db-pw@db.example:5432/shop', HOST: '127.0.0.1', PORT: '9000' });
    const banner = bootBanner({ config, basePath });
    expect(banner.level).toBe('info');
    expect(banner.fields).toEqual({
      url: 'http://127.0.0.1:9000/rest/default/demo/v1',
      database: 'postgres://app:***@db.example:5432/shop',
      adapter: 'express',
      provider: 'default',
      project: 'default/demo/v1',
    });
    expect(banner.message).toBe(
      'Tessera is listening on http://127.0.0.1:9000/rest/default/demo/v1 (database postgres://app:***@db.example:5432/shop, ' +
        'adapter express, provider default, project default/demo/v1)',
    );
    expect(JSON.stringify(banner)).not.toContain('S3cret-db-pw');
  });

  it('uses PUBLIC_URL when set, and carries a generated admin password as a warning', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://api.example.com/tessera', HTTP_ADAPTER: 'fastify' });
    const banner = bootBanner({ config, basePath, generatedAdmin: { username: 'admin', password: 'Gen3rated-pw' } });
    expect(banner.level).toBe('warn');
    expect(banner.fields.url).toBe('https://api.example.com/tessera/rest/default/demo/v1');
    expect(banner.message).toMatch(
      /^Tessera is listening on https:\/\/api\.example\.com\/tessera\/rest\/default\/demo\/v1 \(database sqlite:/,
    );
    expect(banner.message).toContain('first admin account "admin" created with the generated password Gen3rated-pw ;');
  });
});
