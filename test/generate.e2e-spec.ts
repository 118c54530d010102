import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseDatabaseUrl } from '../src/config/database-url.js';
import { PROJECT_ROOT } from '../src/config/project-root.js';
import { readSchema, schemaDiff, type SchemaSnapshot } from '../src/database/schema/schema-reader.js';
import { GenerateError, generateProject, type GenerateResult } from '../src/generator/generate-project.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import { apiAs, apiWithRoles, oneRow, type Api } from './support/api.js';
import { createUser } from './support/auth.js';
import { generateFromSql, onEmptyDatabase, suiteServing, type GeneratedProject } from './support/generated-project.js';
import { SHOP_TABLES, createShopSchema, runSql } from './support/shop-schema.js';
import { createScratchDatabase, type ScratchDatabase } from './support/test-databases.js';
import { startTestApp, suiteApp, testTargets, type TestApp } from './support/test-app.js';

/** Where the suite writes projects: inside the repository (so they resolve `typeorm` and `src/`), ignored by git and the linters. */
const GENERATED = join(PROJECT_ROOT, 'test', '.generated');

interface Summary {
  txsummary: Array<Record<string, unknown> & { '@metadata': { href: string; checksum: string; verb: string } }>;
}

/** Every file of a folder with its text, by path relative to it. */
function filesOf(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files[relative(dir, join(entry.parentPath, entry.name))] = readFileSync(join(entry.parentPath, entry.name), 'utf8');
  }
  return files;
}

async function importProject(dir: string): Promise<ProjectDefinition> {
  return ((await import(join(dir, 'project.ts'))) as { project: ProjectDefinition }).project;
}

const served = (snapshot: SchemaSnapshot): SchemaSnapshot['tables'] => snapshot.tables.filter((t) => SHOP_TABLES.includes(t.name));

for (const target of testTargets().filter((t) => t.adapter === 'express')) {
  describe(`generate a project from a database [${target.database}]`, () => {
    const out = join(GENERATED, target.database);
    let source: ScratchDatabase;
    let before: SchemaSnapshot;
    let result: GenerateResult;
    let project: ProjectDefinition;

    beforeAll(async () => {
      source = await createScratchDatabase(target.database);
      await createShopSchema(source);
      before = await readSchema(parseDatabaseUrl(source.url));
      result = generateProject({ source: { kind: 'database', schema: before }, name: 'shop', out, force: true, root: PROJECT_ROOT });
      project = await importProject(out);
    });
    afterAll(async () => {
      await source.drop();
    });

    it('writes one entity per served table, a baseline migration, roles, rules and the project', () => {
      expect(result.files).toEqual([
        'entities/attachment.entity.ts',
        'entities/category.entity.ts',
        'entities/customer.entity.ts',
        'entities/order-line.entity.ts',
        'entities/orders.entity.ts',
        'entities/product-supplier.entity.ts',
        'entities/product.entity.ts',
        'entities/supplier.entity.ts',
        'entities/warehouse-bin.entity.ts',
        'migrations/1764100000000-baseline.ts',
        'project.ts',
        'roles.ts',
        'rules.ts',
      ]);
      expect(project).toMatchObject({ account: 'default', name: 'shop', versions: ['v1'], rules: [] });
      expect(project.seedUsers).toBeUndefined();
      expect(project.roles.roles.map((r) => r.name)).toEqual(['Full access', 'Read only']);
      expect(project.entities).toHaveLength(9);
    });

    it('lists what it leaves out, and why, in one message', () => {
      // product.photo and attachment.content (blob, bytea) are served: bytes are (issue 27 item 8).
      expect(result.skipped).toEqual(['table event_log: it has no primary key']);
    });

    describe('served on the database it was generated from', () => {
      let t: TestApp;
      let api: Api;

      suiteApp(
        target,
        () => ({ project, databaseUrl: source.url }),
        async (app) => {
          t = app;
          await createUser(t, { login: 'shopkeeper', password: 'Password1', roles: ['Full access'] });
          api = await apiAs(t, 'shopkeeper');
        },
      );

      it('changes nothing in its schema (the baseline is recorded as applied, not run)', async () => {
        expect(await readSchema(parseDatabaseUrl(source.url))).toEqual(before);
      });

      it('serves every generated table', async () => {
        expect(t.base).toBe('/rest/default/shop/v1');
        for (const table of SHOP_TABLES) expect((await api.get(`/${table}`).expect(200)).body).toEqual([]);
      });

      it('inserts and updates through the API: self-reference, join table, composite keys, decimals, dates', async () => {
        const root = (await api.post('/category', { name: 'Tools' }).expect(201)).body as Summary;
        const rootId = root.txsummary[0]!.id as number;
        const child = (await api.post('/category', { name: 'Saws', parent_id: rootId }).expect(201)).body as Summary;
        expect(child.txsummary[0]).toMatchObject({ name: 'Saws', parent_id: rootId });
        await api.post('/supplier', [{ supplier_id: 7, name: 'Acme', email: null }]).expect(201);
        const product = (
          await api
            .post('/product', {
              sku: 'SAW-1',
              name: 'Rip saw',
              category_id: child.txsummary[0]!.id,
              price: '24.50',
              launched: '2025-03-01',
            })
            .expect(201)
        ).body as Summary;
        const productId = product.txsummary[0]!.id as number;
        expect(product.txsummary[0]).toMatchObject({
          sku: 'SAW-1',
          price: 24.5,
          weight: null,
          launched: '2025-03-01',
          active: true,
          status: 'draft',
        });
        await api.post('/product_supplier', { product_id: productId, supplier_id: 7, cost: 12.25 }).expect(201);
        await api.post('/customer', { code: 'C1', name: 'Carpenter', vip: true, credit_limit: '1000.5' }).expect(201);
        const order = (await api.post('/orders', { customer_code: 'C1', ordered_on: '2025-04-02' }).expect(201)).body as Summary;
        const orderId = order.txsummary[0]!.order_id as number;
        await api
          .post('/order_line', [
            { order_id: orderId, line_no: 1, product_id: productId, qty: 2, unit_price: 24.5 },
            { order_id: orderId, line_no: 2, product_id: productId, unit_price: 20 },
          ])
          .expect(201);
        await api.post('/warehouse_bin', { warehouse: 'W1', bin: 'A/1', label: 'first', capacity: 10 }).expect(201);

        const line = await oneRow<Summary['txsummary'][number]>(api, `/order_line/${orderId}~2`);
        expect(line).toMatchObject({ qty: 1, unit_price: 20 });
        const updated = (
          await api.put(`/order_line/${orderId}~2`, { '@metadata': { checksum: line['@metadata'].checksum }, qty: 5 }).expect(200)
        ).body as Summary;
        expect(updated.txsummary[0]).toMatchObject({ order_id: orderId, line_no: 2, qty: 5, '@metadata': { verb: 'UPDATE' } });
        const link = await oneRow<Summary['txsummary'][number]>(api, `/product_supplier/${productId}~7`);
        await api
          .put(`/product_supplier/${productId}~7`, { '@metadata': { checksum: link['@metadata'].checksum }, cost: '11.75' })
          .expect(200);
        expect(await oneRow(api, `/product_supplier/${productId}~7`)).toMatchObject({ cost: 11.75 });
        const bin = await oneRow<Summary['txsummary'][number]>(api, `/warehouse_bin/W1~${encodeURIComponent('A/1')}`);
        expect(bin).toMatchObject({ label: 'first', capacity: 10 });
        // A stale checksum is refused, as for the demo.
        await api.put(`/order_line/${orderId}~2`, { '@metadata': { checksum: line['@metadata'].checksum }, qty: 6 }).expect(409);
      });
    });

    it('writes the same files when generated again (deterministic), and refuses to overwrite without --force', async () => {
      const again = join(GENERATED, `${target.database}-again`);
      const schema = await readSchema(parseDatabaseUrl(source.url));
      generateProject({ source: { kind: 'database', schema }, name: 'shop', out: again, force: true, root: PROJECT_ROOT });
      expect(filesOf(again)).toEqual(filesOf(out));
      expect(() =>
        generateProject({ source: { kind: 'database', schema }, name: 'shop', out: again, force: false, root: PROJECT_ROOT }),
      ).toThrow(GenerateError);
      expect(filesOf(again)).toEqual(filesOf(out));
      rmSync(again, { recursive: true, force: true });
    });

    it('its baseline migration gives an empty database the same schema', async () => {
      const empty = await startTestApp(target, { project });
      try {
        const made = await readSchema(parseDatabaseUrl(empty.config.database.url));
        expect(made.tables.map((t) => t.name).sort()).toEqual([...SHOP_TABLES].sort());
        expect(served(made)).toEqual(served(before));
      } finally {
        await empty.close();
      }
    });

    it('its baseline migration refuses a database that holds only some of its tables, naming them', async () => {
      const partial = await createScratchDatabase(target.database);
      try {
        await runSql(partial, [
          'CREATE TABLE supplier (supplier_id INTEGER NOT NULL PRIMARY KEY)',
          'CREATE TABLE customer (code VARCHAR(10) NOT NULL PRIMARY KEY)',
        ]);
        await expect(startTestApp(target, { project, databaseUrl: partial.url })).rejects.toThrow(
          /The baseline migration creates attachment, category, customer, .*, but customer, supplier exist already/,
        );
      } finally {
        await partial.drop();
      }
    });

    it('writes entities TypeORM finds identical to the database: its schema diff is empty (binary columns included)', async () => {
      expect(await schemaDiff(parseDatabaseUrl(source.url), project.entities)).toEqual([]);
    });
  });
}

/**
 * Generated (computed) columns, per server: stored and virtual ones (PostgreSQL has only stored),
 * of integers and text, one with an index, one unsigned (MariaDB), one with a quote in a string
 * of its expression; on SQLite one without a type, which is left out; on PostgreSQL a table
 * whose key the database computes, which is left out. gauge and shelf refer to each other, so
 * the baseline creates one of them before the other's key exists. Row 1 is written before the
 * generator runs.
 */
const COMPUTED_SQL: Record<'sqlite' | 'mysql' | 'postgres', string[]> = {
  sqlite: [
    `CREATE TABLE "gauge" ("id" INTEGER NOT NULL PRIMARY KEY, "a" INTEGER NOT NULL, "b" INTEGER NOT NULL DEFAULT 0, "label" TEXT,
      "total" INTEGER GENERATED ALWAYS AS ("a" + "b") STORED, "twice" INTEGER AS ("a" * 2) VIRTUAL,
      "shout" TEXT AS (upper("label") || '!' || 'it''s') VIRTUAL, "bare" AS ("a"), "shelf_id" INTEGER,
      CONSTRAINT "fk_gauge_shelf" FOREIGN KEY ("shelf_id") REFERENCES "shelf" ("id"))`,
    'CREATE INDEX "ix_gauge_total" ON "gauge" ("total")',
    `CREATE TABLE "shelf" ("id" INTEGER NOT NULL PRIMARY KEY, "n" INTEGER, "n2" INTEGER AS ("n" * 2) STORED, "gauge_id" INTEGER,
      CONSTRAINT "fk_shelf_gauge" FOREIGN KEY ("gauge_id") REFERENCES "gauge" ("id"))`,
  ],
  mysql: [
    `CREATE TABLE gauge (id INT NOT NULL PRIMARY KEY, a INT NOT NULL, b INT NOT NULL DEFAULT 0, label VARCHAR(20),
      total INT AS (a + b) PERSISTENT, twice INT GENERATED ALWAYS AS (a * 2) VIRTUAL,
      shout VARCHAR(40) AS (concat(upper(label), '!', 'it''s')) VIRTUAL, next INT UNSIGNED AS (a + 1) STORED, shelf_id INT NULL,
      INDEX ix_gauge_total (total))`,
    `CREATE TABLE shelf (id INT NOT NULL PRIMARY KEY, n INT NULL, n2 INT AS (n * 2) STORED, gauge_id INT NULL,
      CONSTRAINT fk_shelf_gauge FOREIGN KEY (gauge_id) REFERENCES gauge (id))`,
    'ALTER TABLE gauge ADD CONSTRAINT fk_gauge_shelf FOREIGN KEY (shelf_id) REFERENCES shelf (id)',
  ],
  postgres: [
    `CREATE TABLE gauge (id INT NOT NULL PRIMARY KEY, a INT NOT NULL, b INT NOT NULL DEFAULT 0, label VARCHAR(20),
      total INT GENERATED ALWAYS AS (a + b) STORED, twice INT GENERATED ALWAYS AS (a * 2) STORED,
      shout TEXT GENERATED ALWAYS AS (upper(label) || '!' || 'it''s') STORED, shelf_id INT NULL)`,
    'CREATE INDEX ix_gauge_total ON gauge (total)',
    `CREATE TABLE shelf (id INT NOT NULL PRIMARY KEY, n INT NULL, n2 INT GENERATED ALWAYS AS (n * 2) STORED, gauge_id INT NULL,
      CONSTRAINT fk_shelf_gauge FOREIGN KEY (gauge_id) REFERENCES gauge (id))`,
    'ALTER TABLE gauge ADD CONSTRAINT fk_gauge_shelf FOREIGN KEY (shelf_id) REFERENCES shelf (id)',
    'CREATE TABLE keyed (a INT NOT NULL, k INT GENERATED ALWAYS AS (a * 2) STORED PRIMARY KEY)',
  ],
};

/** What the generated columns hold for a, b and label. */
const computedOf = (kind: string, a: number, b: number, label: string) => ({
  total: a + b,
  twice: a * 2,
  shout: `${label.toUpperCase()}!it's`,
  ...(kind === 'mysql' ? { next: a + 1 } : {}),
});

for (const target of testTargets().filter((t) => t.adapter === 'express')) {
  const kind = target.database;
  describe(`generate a table with generated (computed) columns: served read-only [${kind}]`, () => {
    let generated: GeneratedProject;
    let before: SchemaSnapshot;
    beforeAll(async () => {
      generated = await generateFromSql(
        kind,
        [...COMPUTED_SQL[kind], "INSERT INTO gauge (id, a, b, label) VALUES (1, 1, 10, 'one')"],
        `computed-${kind}`,
        'gauges',
      );
      before = await readSchema(parseDatabaseUrl(generated.source.url));
    });
    afterAll(async () => {
      await generated.source.drop();
    });

    it('generates the table, its computed columns declared insert: false, update: false, and says which it serves read-only', () => {
      expect(generated.result.files.filter((f) => f.startsWith('entities/'))).toEqual([
        'entities/gauge.entity.ts',
        'entities/shelf.entity.ts',
      ]);
      expect(generated.result.computed).toEqual([
        'gauge.total',
        'gauge.twice',
        'gauge.shout',
        ...(kind === 'mysql' ? ['gauge.next'] : []),
        'shelf.n2',
      ]);
      expect(generated.result.skipped).toEqual(
        kind === 'sqlite'
          ? ['column gauge.bare: type (none), which Tessera cannot serve (the column stays in the database, which computes it)']
          : kind === 'postgres'
            ? ['table keyed: its key column k is computed by the database (a generated column), which Tessera cannot serve as a key']
            : [],
      );
      const entity = readFileSync(join(GENERATED, `computed-${kind}`, 'entities', 'gauge.entity.ts'), 'utf8');
      expect(entity.match(/insert: false, update: false/g)).toHaveLength(
        generated.result.computed.filter((c) => c.startsWith('gauge.')).length,
      );
      // The expression is the database's business: it is in the baseline migration, as a string, not in the entity.
      expect(entity).not.toMatch(/upper|concat/);
      const gauge = before.tables.find((t) => t.name === 'gauge')!;
      expect(gauge.columns.find((c) => c.name === 'total')).toMatchObject({
        generatedType: 'STORED',
        asExpression: expect.stringMatching(/a.*\+.*b/) as string,
      });
    });

    it('the command line names the computed columns it serves read-only, and what it leaves out', () => {
      const out = join(GENERATED, `computed-cli-${kind}`);
      const cli = join(PROJECT_ROOT, 'dist/src/generator/cli.js');
      const run = spawnSync(process.execPath, [cli, '--from', generated.source.url, '--name', 'gauges', '--force', '--out', out], {
        encoding: 'utf8',
      });
      expect(run.status).toBe(0);
      expect(run.stdout).toContain(
        `Computed columns served read-only (the database computes them: GET returns them, a write cannot set them): ${generated.result.computed.join(', ')}\n`,
      );
      const { skipped } = generated.result;
      expect(run.stderr).toBe(
        skipped.length === 0
          ? ''
          : `Left out (Tessera cannot serve them; the rest was generated):\n${skipped.map((s) => `  - ${s}\n`).join('')}`,
      );
      rmSync(out, { recursive: true, force: true });
    });

    describe('served on the database it was generated from', () => {
      let api: Api;
      suiteServing(
        target,
        () => generated,
        (_t, client) => {
          api = client;
        },
      );

      it("changes nothing in its schema: no table of TypeORM's own either", async () => {
        expect(await readSchema(parseDatabaseUrl(generated.source.url))).toEqual(before);
      });

      it('GET returns the values the database computed', async () => {
        expect(await oneRow(api, '/gauge/1')).toMatchObject({ id: 1, a: 1, b: 10, label: 'one', ...computedOf(kind, 1, 10, 'one') });
      });

      it("POST and PUT never send them, and answer the database's values; a value sent for one is refused, a round trip is not", async () => {
        const posted = ((await api.post('/gauge', { id: 2, a: 2, b: 20, label: 'two' }).expect(201)).body as Summary).txsummary;
        expect(posted[0]).toMatchObject({ id: 2, ...computedOf(kind, 2, 20, 'two') });
        const refused = await api.post('/gauge', { id: 3, a: 3, total: 99 }).expect(400);
        expect(refused.body).toMatchObject({ errorCode: 4003 });
        expect((refused.body as { errorMessage: string }).errorMessage).toContain('"total"');

        const row = await oneRow<Summary['txsummary'][number]>(api, '/gauge/2');
        // A round trip: everything the GET returned, the computed values unchanged, one column changed.
        const put = ((await api.put('/gauge/2', { ...row, a: 5 }).expect(200)).body as Summary).txsummary;
        expect(put[0]).toMatchObject({ id: 2, a: 5, ...computedOf(kind, 5, 20, 'two') });
        const read = await oneRow<Summary['txsummary'][number]>(api, '/gauge/2');
        expect(read).toMatchObject(computedOf(kind, 5, 20, 'two'));
        expect(read['@metadata'].checksum).toBe(put[0]!['@metadata'].checksum);
        const changed = await api.put('/gauge/2', { '@metadata': read['@metadata'], total: 1 }).expect(400);
        expect(changed.body).toMatchObject({ errorCode: 4003 });
        await api.put('/gauge/2', { '@metadata': read['@metadata'], label: 'deux' }).expect(200);
        expect(await oneRow(api, '/gauge/2')).toMatchObject({ label: 'deux', ...computedOf(kind, 5, 20, 'deux') });
      });
    });

    it('its baseline migration gives an empty database the same table, the columns computed there too', async () => {
      await onEmptyDatabase(target, generated.project, async (app, made) => {
        const ours = (s: SchemaSnapshot): SchemaSnapshot['tables'] => s.tables.filter((t) => ['gauge', 'shelf'].includes(t.name));
        expect(ours(made)).toEqual(ours(before));
        const api = await apiWithRoles(app, ['Full access']);
        const posted = ((await api.post('/gauge', { id: 7, a: 7, b: 1, label: 'seven' }).expect(201)).body as Summary).txsummary;
        expect(posted[0]).toMatchObject(computedOf(kind, 7, 1, 'seven'));
      });
    });
  });
}

describe('generate: an empty project, the demo, and what the command line refuses', () => {
  const empty = join(GENERATED, 'empty');
  const cli = (...args: string[]): { status: number; output: string } => {
    try {
      const stdout = execFileSync(process.execPath, [join(PROJECT_ROOT, 'dist/src/generator/cli.js'), ...args], {
        encoding: 'utf8',
        stdio: 'pipe',
      });
      return { status: 0, output: stdout };
    } catch (error) {
      const e = error as { status: number; stderr: string };
      return { status: e.status, output: e.stderr };
    }
  };

  it('starts an empty project that boots, and takes entities added by hand', async () => {
    generateProject({ source: { kind: 'empty' }, name: 'blank', out: empty, force: true, root: PROJECT_ROOT });
    expect(Object.keys(filesOf(empty)).sort()).toEqual(['project.ts', 'roles.ts', 'rules.ts']);
    const project = await importProject(empty);
    expect(project).toMatchObject({ name: 'blank', entities: [], migrations: [] });
    const { ShelfSlot } = await import('./fixtures/shelf-slots/shelf-slot.entity.js');
    const { CreateShelfSlot1764000000000 } = await import('./fixtures/shelf-slots/create-shelf-slot.migration.js');
    const t = await startTestApp(testTargets()[0]!, {
      project: { ...project, entities: [ShelfSlot], migrations: [CreateShelfSlot1764000000000] },
    });
    try {
      await createUser(t, { login: 'owner', password: 'Password1', roles: ['Full access'] });
      const api = await apiAs(t, 'owner');
      expect(t.base).toBe('/rest/default/blank/v1');
      await api.post('/shelf_slot', { warehouse: 'w', aisle: 'a', slot: 1 }).expect(201);
      expect((await api.get('/shelf_slot').expect(200)).body).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('--demo --force puts back exactly the one-line project.ts that serves the demo', () => {
    const demo = join(GENERATED, 'src-project');
    generateProject({ source: { kind: 'empty' }, name: 'blank', out: demo, force: true, root: PROJECT_ROOT });
    expect(() => generateProject({ source: { kind: 'demo' }, out: demo, force: false, root: PROJECT_ROOT })).toThrow(/add --force/);
    generateProject({ source: { kind: 'demo' }, out: demo, force: true, root: PROJECT_ROOT });
    expect(Object.keys(filesOf(demo))).toEqual(['project.ts']);
    // The same file as the one shipped in src/project/, but for the path up to src/demo/ from this folder.
    const shipped = readFileSync(join(PROJECT_ROOT, 'src', 'project', 'project.ts'), 'utf8');
    expect(readFileSync(join(demo, 'project.ts'), 'utf8').replace("'../../../src/demo/", "'../demo/")).toBe(shipped);
    // What a fresh clone holds is replaced only with --force too.
    expect(() => generateProject({ source: { kind: 'empty' }, name: 'blank', out: demo, force: false, root: PROJECT_ROOT })).toThrow(
      'test/.generated/src-project already holds the demo (a one-line project.ts); add --force to replace it',
    );
    rmSync(demo, { recursive: true, force: true });
  });

  it('refuses to replace a project without --force, and a folder that holds no project even with it', () => {
    expect(() => generateProject({ source: { kind: 'empty' }, name: 'other', out: empty, force: false, root: PROJECT_ROOT })).toThrow(
      'test/.generated/empty already holds a project; add --force to replace it (npm run generate -- --demo --force puts the demo back)',
    );
    const notAProject = join(GENERATED, 'not-a-project');
    rmSync(notAProject, { recursive: true, force: true });
    execFileSync('mkdir', ['-p', notAProject]);
    writeFileSync(join(notAProject, 'notes.txt'), 'keep me');
    expect(() => generateProject({ source: { kind: 'empty' }, name: 'x', out: notAProject, force: true, root: PROJECT_ROOT })).toThrow(
      /holds no project.ts/,
    );
    expect(readFileSync(join(notAProject, 'notes.txt'), 'utf8')).toBe('keep me');
    expect(() => generateProject({ source: { kind: 'empty' }, name: 'x', out: '/tmp/elsewhere', force: true, root: PROJECT_ROOT })).toThrow(
      /--out must be/,
    );
  });

  it('the command line: one plain line and exit status 1 for unknown options, a bad name, a bad URL or a missing mode', () => {
    const usage = /usage: npm run generate -- /;
    const unknown = cli('--from', 'sqlite:x.sqlite', '--name', 'shop', '--frobnicate');
    expect(unknown.status).toBe(1);
    expect(unknown.output).toMatch(usage);
    expect(unknown.output.trim().split('\n')).toHaveLength(1);
    expect(cli('--name', 'shop')).toMatchObject({ status: 1, output: expect.stringMatching(/exactly one of --from, --empty and --demo/) });
    expect(cli('--empty', '--name', 'a/b')).toMatchObject({ status: 1, output: expect.stringMatching(/--name is a URL segment/) });
    expect(cli('--from', 'oracle://x/y', '--name', 'shop')).toMatchObject({
      status: 1,
      output: 'generate: --from: unsupported scheme "oracle"\n',
    });
    expect(cli('--from', 'sqlite:/nonexistent/x.sqlite', '--name', 'shop')).toMatchObject({
      status: 1,
      output: 'generate: cannot read the schema of sqlite:/nonexistent/x.sqlite: no SQLite database at /nonexistent/x.sqlite\n',
    });
    expect(cli('--empty', '--name', 'blank', '--force', '--out', join(GENERATED, 'cli-empty'))).toMatchObject({ status: 0 });
    expect(Object.keys(filesOf(join(GENERATED, 'cli-empty'))).sort()).toEqual(['project.ts', 'roles.ts', 'rules.ts']);
  });

  it('a generated project type-checks under the strict compiler options', () => {
    const config = join(GENERATED, 'tsconfig.generated.json');
    writeFileSync(
      config,
      JSON.stringify({
        extends: '../../tsconfig.json',
        compilerOptions: { noEmit: true, types: ['node'] },
        include: ['*/**/*.ts'],
        exclude: [],
      }),
    );
    execFileSync(process.execPath, [join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc'), '-p', config], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
      stdio: 'pipe',
    });
  });
});
