import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ViewEntity } from 'typeorm';
import { ViewColumn } from '../src/data/view-column.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import { apiWithRoles, type Api } from './support/api.js';
import { GENERATED, generateFromSql, onEmptyDatabase, type GeneratedProject } from './support/generated-project.js';
import { runSql } from './support/shop-schema.js';
import { startTestApp, suiteApp, testTargets } from './support/test-app.js';

/**
 * Views through the generator (issue 30, item 4; issue 28, item 5): a small schema of its own
 * with views on SQLite, MariaDB and PostgreSQL, generated into a project that serves each view
 * read-only: GET with filters, orders and stable pages, no key (no href, no checksum), writes
 * refused with 405 / 4050, roles' row filters and column lists as on a table; `@views` lists
 * them and `@docs` documents them read-only. The baseline migration creates them on an empty
 * database from the source database's own definitions.
 */

type Kind = 'sqlite' | 'mysql' | 'postgres';
type Row = Record<string, unknown>;

const ACCOUNTS = 24;
const OWNERS = ['Ann', 'Bob', 'Cy'];

/** Account i: region North or South, owner Ann, Bob or Cy, balance 0 to 150: many accounts alike but for their key and note. */
const account = (i: number): { account_id: number; region_id: number; owner: string; balance: number; secret_note: string } => ({
  account_id: i,
  region_id: (i % 2) + 1,
  owner: OWNERS[i % 3]!,
  balance: (i % 4) * 50,
  secret_note: `note-${String(i).padStart(2, '0')}`,
});

function schemaSql(): string[] {
  const accounts = Array.from({ length: ACCOUNTS }, (_, n) => account(n + 1));
  return [
    'CREATE TABLE region (region_id INTEGER NOT NULL PRIMARY KEY, name VARCHAR(20) NOT NULL)',
    `CREATE TABLE account (account_id INTEGER NOT NULL PRIMARY KEY, region_id INTEGER NOT NULL REFERENCES region (region_id),
       owner VARCHAR(40) NOT NULL, balance DECIMAL(10,2) NOT NULL, secret_note VARCHAR(40))`,
    // No primary key: not served, so neither is the view that reads it.
    'CREATE TABLE audit_log (at VARCHAR(30), what VARCHAR(40))',
    `CREATE VIEW account_summary AS SELECT a.account_id AS account_id, r.name AS region, a.owner AS owner, UPPER(a.owner) AS shout,
       a.balance AS balance, a.secret_note AS secret_note FROM account a JOIN region r ON r.region_id = a.region_id`,
    // Rows alike in every column but the note.
    'CREATE VIEW balances AS SELECT r.name AS region, a.owner AS owner, a.balance AS balance, a.secret_note AS secret_note FROM account a JOIN region r ON r.region_id = a.region_id',
    'CREATE VIEW region_totals AS SELECT r.name AS region, COUNT(a.account_id) AS accounts FROM region r LEFT JOIN account a ON a.region_id = r.region_id GROUP BY r.name',
    // A view of a view: created after it.
    'CREATE VIEW rich_accounts AS SELECT owner, balance FROM account_summary WHERE balance > 100',
    'CREATE VIEW recent_audit AS SELECT what FROM audit_log',
    "INSERT INTO region (region_id, name) VALUES (1, 'North'), (2, 'South')",
    `INSERT INTO account (account_id, region_id, owner, balance, secret_note) VALUES ${accounts
      .map((a) => `(${a.account_id}, ${a.region_id}, '${a.owner}', ${a.balance}, '${a.secret_note}')`)
      .join(', ')}`,
  ];
}

/** What the generator says it leaves out: on SQLite also the expressions, which SQLite gives no type. */
const SKIPPED: Record<Kind, string[]> = {
  sqlite: [
    'table audit_log: it has no primary key',
    "column account_summary.shout: an expression SQLite gives no type, which Tessera cannot serve (left out of the view's entity; CAST it in the view, e.g. CAST(... AS TEXT), to serve it)",
    "column region_totals.accounts: an expression SQLite gives no type, which Tessera cannot serve (left out of the view's entity; CAST it in the view, e.g. CAST(... AS TEXT), to serve it)",
    'view recent_audit: it reads table audit_log, which is not served, so the baseline migration could not create it on an empty database',
  ],
  mysql: [
    'table audit_log: it has no primary key',
    'view recent_audit: it reads table audit_log, which is not served, so the baseline migration could not create it on an empty database',
  ],
  postgres: [
    'table audit_log: it has no primary key',
    'view recent_audit: it reads table audit_log, which is not served, so the baseline migration could not create it on an empty database',
  ],
};

/** The generated project with roles of the suite's: a row-filtered reader without the note, one granted ALL, one without the views. */
function withRoles(project: ProjectDefinition): ProjectDefinition {
  return {
    ...project,
    roles: {
      globals: ['region'],
      roles: [
        ...project.roles.roles,
        {
          name: 'Teller',
          defaultAccess: 'NONE',
          metaAccess: false,
          resources: {
            account_summary: {
              access: ['READ'],
              rowFilter: 'region = @{region}',
              readColumns: ['account_id', 'region', 'owner', 'balance'],
            },
            balances: { access: ['READ'], readColumns: ['region', 'owner', 'balance'] },
          },
        },
        // ALL is READ on a view.
        { name: 'Writer', defaultAccess: 'NONE', resources: { account_summary: { access: ['ALL'] }, account: { access: ['ALL'] } } },
        { name: 'Outsider', defaultAccess: 'NONE', resources: { region: { access: ['READ'] } } },
      ],
    },
  };
}

/** Every page of a collection, following next_batch: the objects in the order served. */
async function allPages(api: Api, path: string): Promise<Row[]> {
  const rows: Row[] = [];
  let page = (await api.get(path).expect(200)).body as Row[];
  for (;;) {
    const last = page.at(-1) as { '@metadata'?: { next_batch?: string } } | undefined;
    const next = last?.['@metadata']?.next_batch;
    rows.push(...(next ? page.slice(0, -1) : page));
    if (!next) return rows;
    page = (await api.getUrl(next).expect(200)).body as Row[];
  }
}

const q = encodeURIComponent;

/** A view entity written by hand with a declared key (account_id is unique in account_summary): its rows get an href and a checksum. */
@ViewEntity({ name: 'account_summary', synchronize: false })
class KeyedSummary {
  @ViewColumn({ type: 'integer', primary: true })
  account_id!: number;

  @ViewColumn({ type: 'varchar', length: 40, nullable: true })
  owner!: string | null;
}

for (const target of testTargets().filter((t) => t.adapter === 'express')) {
  const kind = target.database;

  describe(`views through the generator, read-only [${kind}]`, () => {
    let generated: GeneratedProject;
    let project: ProjectDefinition;

    beforeAll(async () => {
      generated = await generateFromSql(kind, schemaSql(), `views-${kind}`, 'views');
      project = withRoles(generated.project);
    });
    afterAll(async () => {
      await generated.source.drop();
    });

    it('writes a view entity for each view it can serve and create, says which, and names what it leaves out and why', () => {
      expect(generated.result.views).toEqual(['account_summary', 'balances', 'region_totals', 'rich_accounts']);
      expect(generated.result.files.filter((f) => f.endsWith('.view.ts'))).toEqual([
        'entities/account-summary.view.ts',
        'entities/balances.view.ts',
        'entities/region-totals.view.ts',
        'entities/rich-accounts.view.ts',
      ]);
      expect(generated.result.skipped).toEqual(SKIPPED[kind]);
      const entity = readFileSync(join(GENERATED, `views-${kind}`, 'entities', 'account-summary.view.ts'), 'utf8');
      expect(entity).toContain("@ViewEntity({ name: 'account_summary', synchronize: false })");
      expect(entity).toMatch(/@ViewColumn\(\{ type: '[a-z ]+', length: 40(, nullable: true)? \}\)\s+owner!: string( \| null)?;/);
      const baseline = readFileSync(join(GENERATED, `views-${kind}`, 'migrations', '1764100000000-baseline.ts'), 'utf8');
      // Each view after what it reads.
      expect(baseline.indexOf("name: 'rich_accounts'")).toBeGreaterThan(baseline.indexOf("name: 'account_summary'"));
    });

    describe('served on the database it came from', () => {
      let full: Api;
      let teller: Api;
      let writer: Api;
      let outsider: Api;

      suiteApp(
        target,
        () => ({ project, databaseUrl: generated.source.url }),
        async (app) => {
          full = await apiWithRoles(app, ['Full access']);
          teller = await apiWithRoles(app, ['Teller'], { region: 'North' });
          writer = await apiWithRoles(app, ['Writer']);
          outsider = await apiWithRoles(app, ['Outsider']);
        },
      );

      it('answers rows without @metadata (no key: no href, no checksum), every column ordered, a filter and an order applied', async () => {
        const rows = (await full.get('/account_summary?pagesize=100').expect(200)).body as Row[];
        expect(rows).toHaveLength(ACCOUNTS);
        expect(rows[0]).toEqual({
          account_id: 1,
          region: 'South',
          owner: 'Bob',
          ...(kind === 'sqlite' ? {} : { shout: 'BOB' }),
          balance: 50,
          secret_note: 'note-01',
        });
        // With no order given, by every column in turn: account_id first here.
        expect(rows.map((r) => r.account_id)).toEqual(Array.from({ length: ACCOUNTS }, (_, n) => n + 1));
        const filtered = (
          await full.get(`/account_summary?filter=${q("owner = 'Ann' and balance >= 100")}&order=${q('balance desc')}`).expect(200)
        ).body as Row[];
        expect(filtered.map((r) => [r.owner, r.balance, r.account_id])).toEqual([
          ['Ann', 150, 3],
          ['Ann', 150, 15],
          ['Ann', 100, 6],
          ['Ann', 100, 18],
        ]);
        const sys = (
          await full.get(`/account_summary?sysfilter=${q("equal(region:'North', owner:'Cy')")}&sysorder=${q('(balance:desc)')}`).expect(200)
        ).body as Row[];
        expect(sys.map((r) => r.account_id)).toEqual([2, 14, 8, 20]);
        const totals = (await full.get('/region_totals').expect(200)).body as Row[];
        expect(totals).toEqual(
          kind === 'sqlite'
            ? [{ region: 'North' }, { region: 'South' }]
            : [
                { region: 'North', accounts: 12 },
                { region: 'South', accounts: 12 },
              ],
        );
        expect(((await full.get('/rich_accounts').expect(200)).body as Row[]).every((r) => (r.balance as number) > 100)).toBe(true);
      });

      it('pages are stable: rows alike in every column the caller reads come in one order, page after page', async () => {
        for (const api of [full, teller]) {
          const whole = (await api.get('/balances?pagesize=100').expect(200)).body as Row[];
          expect(whole).toHaveLength(ACCOUNTS);
          expect(await allPages(api, '/balances?pagesize=5')).toEqual(whole);
          expect(await allPages(api, `/balances?pagesize=7&order=${q('owner desc')}`)).toEqual(
            (await api.get(`/balances?pagesize=100&order=${q('owner desc')}`).expect(200)).body,
          );
        }
        // The Teller reads no note: 24 rows, only 12 different ones.
        const seen = ((await teller.get('/balances?pagesize=100').expect(200)).body as Row[]).map((r) => JSON.stringify(r));
        expect(new Set(seen).size).toBe(12);
        expect(seen.some((r) => r.includes('note'))).toBe(false);
      });

      it('has no URL per row: a key in the URL, or an attribute under one, is 404 / 4040', async () => {
        for (const path of ['/account_summary/1', '/account_summary/1/owner']) {
          const res = await full.get(path).expect(404);
          expect(res.body).toEqual({
            statusCode: 404,
            errorCode: 4040,
            errorMessage: 'account_summary is a view without a key: its rows have no URL of their own. Read account_summary with a filter.',
          });
        }
      });

      it('refuses every write with 405 / 4050 and Allow: GET, to a caller who may read the view (ALL is READ); 403 to one who may not', async () => {
        for (const api of [full, writer, teller]) {
          for (const res of [
            await api.post('/account_summary', { owner: 'Zed' }),
            await api.put('/account_summary', { account_id: 1, owner: 'Zed' }),
            await api.put('/account_summary/1', { '@metadata': { checksum: 'override' }, owner: 'Zed' }),
            await api.delete('/account_summary/1?checksum=override'),
          ]) {
            expect([res.status, res.body]).toEqual([
              405,
              { statusCode: 405, errorCode: 4050, errorMessage: 'account_summary is a view, which is read-only: only GET.' },
            ]);
            expect(res.headers.allow).toBe('GET');
          }
        }
        const refused = await outsider.post('/account_summary', { owner: 'Zed' }).expect(403);
        expect(refused.body.errorCode).toBe(4030);
        await outsider.get('/account_summary').expect(403);
        // Nothing was written through the view.
        expect(((await full.get(`/account_summary?filter=${q("owner = 'Zed'")}`).expect(200)).body as Row[]).length).toBe(0);
      });

      it("applies a role's row filter and column list: the note is neither shown nor usable in a filter or an order", async () => {
        const rows = await allPages(teller, '/account_summary?pagesize=5');
        expect(rows).toHaveLength(ACCOUNTS / 2);
        expect(rows.every((r) => r.region === 'North')).toBe(true);
        expect(rows.every((r) => Object.keys(r).sort().join() === 'account_id,balance,owner,region')).toBe(true);
        for (const query of [
          `filter=${q("secret_note = 'note-02'")}`,
          `sysfilter=${q("equal(secret_note:'note-02')")}`,
          `order=${q('secret_note')}`,
          `sysorder=${q('(secret_note:desc)')}`,
          `filter=${q("shout = 'ANN'")}`,
        ]) {
          const res = await teller.get(`/account_summary?${query}`);
          expect([query, res.status, res.body.errorCode]).toEqual([query, 400, 4003]);
        }
      });

      it('@views lists the views (not @tables), @resources marks them read-only, @docs documents GET alone', async () => {
        const views = (await full.get('/@views').expect(200)).body as Row[];
        expect(views.map((v) => v.name)).toEqual(['account_summary', 'balances', 'region_totals', 'rich_accounts']);
        expect(views[0]).toMatchObject({
          '@metadata': { href: expect.stringMatching(/\/@views\/main:account_summary$/) as string },
          readOnly: true,
          prefix: 'main',
          entity: 'account_summary',
          primaryKey: [],
          primaryKeyColumns: [],
          parents: [],
          children: [],
        });
        const one = (await full.get('/@views/account_summary').expect(200)).body as Row;
        expect((one.columns as Row[]).map((c) => c.name)).toEqual(
          kind === 'sqlite'
            ? ['account_id', 'region', 'owner', 'balance', 'secret_note']
            : ['account_id', 'region', 'owner', 'shout', 'balance', 'secret_note'],
        );
        await full.get('/@tables/account_summary').expect(404);
        await full.get('/@views/account').expect(404);
        const tables = (await full.get('/@tables').expect(200)).body as Row[];
        expect(tables.map((x) => x.name)).toEqual(['account', 'region']);
        const resources = (await full.get('/@resources').expect(200)).body as Row[];
        expect(resources.find((r) => r.name === 'balances')).toMatchObject({ resource_type: 'TableBased', readOnly: true, primaryKey: [] });
        expect(resources.find((r) => r.name === 'account')).not.toHaveProperty('readOnly');

        const doc = (await full.get('/@docs').expect(200)).body as {
          paths: Record<string, Row>;
          components: { schemas: Record<string, Row> };
        };
        expect(Object.keys(doc.paths['/account_summary']!)).toEqual(['get']);
        expect(doc.paths['/account_summary/{key}']).toBeUndefined();
        expect(doc.components.schemas['account_summary.new']).toBeUndefined();
        const schema = doc.components.schemas.account_summary as { properties: Record<string, Row>; description: string };
        expect(schema.properties['@metadata']).toBeUndefined();
        expect(Object.values(schema.properties).every((p) => p.readOnly === true)).toBe(true);
        expect(schema.description).toMatch(/read-only; no key/);
        expect(String((doc.paths['/account_summary']!.get as Row).description)).toMatch(/405 \/ 4050/);
      });
    });

    it('a key declared by hand gives the rows an href and a checksum, a URL of their own (with an ETag) and key order', async () => {
      const keyed: ProjectDefinition = {
        ...generated.project,
        entities: [...generated.project.entities.filter((e) => e.name !== 'AccountSummary'), KeyedSummary],
      };
      const t = await startTestApp(target, { project: keyed, databaseUrl: generated.source.url });
      try {
        const api = await apiWithRoles(t, ['Full access']);
        const [first] = (await api.get('/account_summary?pagesize=1').expect(200)).body as Array<Row & { '@metadata': Row }>;
        expect(first).toEqual({
          '@metadata': {
            href: expect.stringMatching(/\/account_summary\/1$/) as string,
            checksum: expect.stringMatching(/^R:[0-9a-f]{16}$/) as string,
          },
          account_id: 1,
          owner: 'Bob',
        });
        const res = await api.get('/account_summary/3').expect(200);
        expect(res.body).toEqual([expect.objectContaining({ account_id: 3, owner: 'Ann' })]);
        await api.get('/account_summary/3').set('If-None-Match', res.headers.etag!).expect(304);
        expect((await api.get('/account_summary/3/owner').expect(200)).text).toBe('Ann');
        await api.put('/account_summary/3', { '@metadata': { checksum: 'override' }, owner: 'Zed' }).expect(405);
      } finally {
        await t.close();
      }
    });

    it('its baseline migration creates the tables and the views on an empty database, which the views then read', async () => {
      await onEmptyDatabase(target, project, async (empty, made) => {
        expect(made.views.map((v) => v.name)).toEqual(['account_summary', 'balances', 'region_totals', 'rich_accounts']);
        const api = await apiWithRoles(empty, ['Full access']);
        expect((await api.get('/account_summary').expect(200)).body).toEqual([]);
        await api.post('/region', { region_id: 1, name: 'North' }).expect(201);
        await api.post('/account', { account_id: 7, region_id: 1, owner: 'Dee', balance: 500, secret_note: 'x' }).expect(201);
        expect((await api.get('/rich_accounts').expect(200)).body).toEqual([{ owner: 'Dee', balance: 500 }]);
      });
    });

    it("the boot's schema check names a view the database lost (its migration ran before), as it does a table", async () => {
      await runSql(generated.source, ['DROP VIEW rich_accounts']);
      await expect(startTestApp(target, { project, databaseUrl: generated.source.url })).rejects.toThrow(
        /does not match the entities[^]*view rich_accounts is missing \(view entity RichAccounts\)/,
      );
    });
  });
}
