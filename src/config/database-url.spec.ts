import { parseDatabaseUrl } from './database-url.js';

describe('parseDatabaseUrl', () => {
  it('resolves a relative SQLite path against the working directory', () => {
    expect(parseDatabaseUrl('sqlite:./data/a.sqlite', '/srv/app')).toMatchObject({ kind: 'sqlite', sqlitePath: '/srv/app/data/a.sqlite' });
  });

  it('keeps an absolute SQLite path', () => {
    expect(parseDatabaseUrl('sqlite:/var/lib/tessera/api.sqlite').sqlitePath).toBe('/var/lib/tessera/api.sqlite');
  });

  it.each([
    ['mysql://root@127.0.0.1:3306/test', 'mysql'],
    ['mariadb://root@127.0.0.1:3306/test', 'mariadb'],
    ['postgres://u@127.0.0.1/test', 'postgres'],
    ['postgresql://u@127.0.0.1/test', 'postgres'],
  ])('picks the driver from %s', (url, kind) => {
    expect(parseDatabaseUrl(url).kind).toBe(kind);
  });

  it('hides the password in the safe URL', () => {
    const target = parseDatabaseUrl('postgres://user:s3cret@db.example/app');
    expect(target.safeUrl).not.toContain('s3cret');
    expect(target.safeUrl).toContain('***');
  });

  it.each(['sqlite:', 'sqlite::memory:', 'oracle://x/y', 'mysql://host-only', 'not a url'])('refuses %s', (url) => {
    expect(() => parseDatabaseUrl(url)).toThrow();
  });
});
