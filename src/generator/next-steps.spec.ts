import { join } from 'node:path';
import { closingLines } from './next-steps.js';

describe('closingLines', () => {
  const root = '/srv/tessera';
  const out = join(root, 'src', 'project');

  it('gives the command that starts the generated project on its database, password masked, and the console to open', () => {
    const lines = closingLines({ demo: false, name: 'sakila', from: 'postgres://app:S3cret-pw@db.example:5432/sakila', out, root }, {});
    expect(lines).toEqual([
      "Start it:          DATABASE_URL='postgres://app:***@db.example:5432/sakila' npm start",
      '                   (*** stands for the database password, which is never printed: put it back)',
      'Open the console:  http://127.0.0.1:8080/admin/   (sign in as admin; the first start on a database prints its generated password, ' +
        'unless TESSERA_ADMIN_PASSWORD is set)',
      'The API:           http://127.0.0.1:8080/rest/default/sakila/v1   (Swagger UI: http://127.0.0.1:8080/rest/default/sakila/v1/@docs/ui)',
    ]);
    expect(lines.join('\n')).not.toContain('S3cret-pw');
  });

  it('needs no quoting or note for a URL without a password, nor for a SQLite file (named by its absolute path)', () => {
    expect(closingLines({ demo: false, name: 'shop', from: 'mysql://root@127.0.0.1:3306/shop', out, root }, {})[0]).toBe(
      'Start it:          DATABASE_URL=mysql://root@127.0.0.1:3306/shop npm start',
    );
    const sqlite = closingLines({ demo: false, name: 'shop', from: 'sqlite:/data/shop.sqlite', out, root }, {});
    expect(sqlite[0]).toBe('Start it:          DATABASE_URL=sqlite:/data/shop.sqlite npm start');
    expect(sqlite[1]).toMatch(/^Open the console/);
  });

  it('names the URLs as npm start will serve them in this environment: PORT, HOST, PUBLIC_URL, API_*', () => {
    const env = { PORT: '9090', HOST: '::1', API_VERSIONS: 'v2,v1', TESSERA_ADMIN_USER: 'ops' };
    const lines = closingLines({ demo: false, name: 'shop', from: 'sqlite:/data/shop.sqlite', out, root }, env);
    expect(lines.slice(1)).toEqual([
      'Open the console:  http://[::1]:9090/admin/   (sign in as ops; the first start on a database prints its generated password, ' +
        'unless TESSERA_ADMIN_PASSWORD is set)',
      'The API:           http://[::1]:9090/rest/default/shop/v2   (Swagger UI: http://[::1]:9090/rest/default/shop/v2/@docs/ui)',
    ]);
    const proxied = closingLines({ demo: false, name: 'shop', out, root }, { PUBLIC_URL: 'https://api.example.com/tessera' });
    expect(proxied.at(-1)).toBe(
      'The API:           https://api.example.com/tessera/rest/default/shop/v1   (Swagger UI: https://api.example.com/tessera/rest/default/shop/v1/@docs/ui)',
    );
  });

  it('says now what npm start would refuse: a misspelled DATABASE_URL in the shell', () => {
    const lines = closingLines({ demo: false, name: 'shop', from: 'sqlite:/data/shop.sqlite', out, root }, { DATABSE_URL: 'x' });
    expect(lines[0]).toBe(
      'npm start would refuse this environment as it is; fix it first:\n' +
        '  - DATABSE_URL: did you mean DATABASE_URL? (Tessera reads no DATABSE_URL; rename it, or unset it if it is not for Tessera)',
    );
    expect(lines[1]).toBe('Start it:          DATABASE_URL=sqlite:/data/shop.sqlite npm start');
  });

  it('starts an empty project or the demo on the DATABASE_URL npm start reads', () => {
    expect(closingLines({ demo: false, name: 'blank', out, root }, { DATABASE_URL: 'sqlite:/data/blank.sqlite' })[0]).toBe(
      'Start it:          npm start   (on sqlite:/data/blank.sqlite; DATABASE_URL=… npm start for another database)',
    );
    const demo = closingLines({ demo: true, out, root }, {});
    expect(demo[0]).toBe('The demo is back.');
    expect(demo.at(-1)).toBe(
      'The API:           http://127.0.0.1:8080/rest/default/demo/v1   (Swagger UI: http://127.0.0.1:8080/rest/default/demo/v1/@docs/ui)',
    );
  });

  it('says when --out wrote the project somewhere npm start does not serve', () => {
    const lines = closingLines({ demo: false, name: 'shop', out: join(root, 'test', '.generated', 'shop'), root }, {});
    expect(lines[0]).toBe(
      'npm start serves src/project/, not test/.generated/shop: move the files there first (or generate without --out).',
    );
  });
});
