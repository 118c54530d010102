import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { parseDatabaseUrl } from '../src/config/database-url.js';
import { PROJECT_ROOT } from '../src/config/project-root.js';
import { readSchema, type SchemaSnapshot } from '../src/database/schema/schema-reader.js';
import { generateProject, type GenerateResult } from '../src/generator/generate-project.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import { apiAs, type Api } from './support/api.js';
import { createUser } from './support/auth.js';
import { GENERATED, generateFromSql, onEmptyDatabase } from './support/generated-project.js';
import { runSql } from './support/shop-schema.js';
import { createScratchDatabase, type ScratchDatabase } from './support/test-databases.js';
import { startTestApp, testTargets, type TestApp } from './support/test-app.js';

/** A table name that closes a doc comment and runs code, were it written into one as it is. */
const EVIL = 'evil */ (globalThis as any)[`PWNED`] = 1; /*';
/** A view's name of the same kind. */
const VIEW = 'view */ (globalThis as any)[`PWNED`] = 2; /*';

/**
 * Names a database accepts in double quotes and a generator must write into TypeScript as data
 * only: quotes, a backslash, a newline, a line separator, `${`, a non-ASCII letter, `Object.prototype`
 * members, and a default that reads like code.
 */
const HOSTILE_SQL = [
  `CREATE TABLE "${EVIL}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "a'b" TEXT, "c""d" TEXT, "back\\slash" TEXT, "new
line" TEXT, "ls\u2028sep" TEXT, "\${x}" TEXT, "é" TEXT, "x\` y" TEXT, "class" TEXT,
    "constructor" TEXT, "__proto__" TEXT, "toString" TEXT, "hasOwnProperty" INTEGER,
    "d1" TEXT DEFAULT ('''); process.exit(1); //'), "d2" TEXT DEFAULT 'it''s */ x'
  )`,
  `CREATE TABLE "project_definition" ("id" INTEGER NOT NULL PRIMARY KEY, "constructor_id" INTEGER REFERENCES "project_definition" ("id"))`,
  `CREATE TABLE "needs_constructor" ("id" INTEGER NOT NULL PRIMARY KEY, "constructor" TEXT NOT NULL)`,
  `CREATE TABLE "a.b" ("id" INTEGER NOT NULL PRIMARY KEY)`,
  `CREATE TABLE "it's" ("id" INTEGER NOT NULL PRIMARY KEY)`,
  `CREATE TABLE "computed" ("id" INTEGER NOT NULL PRIMARY KEY, "twice" INTEGER GENERATED ALWAYS AS ("id" * 2) VIRTUAL)`,
  // A view whose name closes a comment and whose definition holds code in a string: the baseline migration keeps it as data.
  `CREATE VIEW "${VIEW}" AS SELECT "a'b", "c""d", "new
line" AS "v */ w", 'it''s''); process.exit(1); //' AS "lit" FROM "${EVIL}"`,
];

describe('generate from a hostile SQLite schema [sqlite]', () => {
  const target = testTargets().find((t) => t.database === 'sqlite' && t.adapter === 'express')!;
  const out = join(GENERATED, 'hostile');
  let source: ScratchDatabase;
  let result: GenerateResult;
  let project: ProjectDefinition;

  beforeAll(async () => {
    source = await createScratchDatabase('sqlite');
    await runSql(source, HOSTILE_SQL);
    const schema = await readSchema(parseDatabaseUrl(source.url));
    result = generateProject({ source: { kind: 'database', schema }, name: 'hostile', out, force: true, root: PROJECT_ROOT });
    project = ((await import(join(out, 'project.ts'))) as { project: ProjectDefinition }).project;
  });
  afterAll(async () => {
    await source.drop();
  });

  it('runs nothing a name holds: a table name that closes a comment stays inside it', () => {
    expect((globalThis as Record<string, unknown>).PWNED).toBeUndefined();
    const entity = readFileSync(join(out, 'entities', 'evil-globalthis-as-any-pwned-1.entity.ts'), 'utf8');
    expect(entity.split('\n').filter((line) => line.includes('PWNED'))).toEqual([
      '/** Table evil *\\/ (globalThis as any)[`PWNED`] = 1; /*, as generated from the database (`npm run generate`). */',
      "@Entity({ name: 'evil */ (globalThis as any)[`PWNED`] = 1; /*' })",
      'export class EvilGlobalThisAsAnyPWNED1 {',
    ]);
    expect(project.entities.map((e) => e.name).sort()).toEqual([
      'Computed',
      'EvilGlobalThisAsAnyPWNED1',
      'NeedsConstructor',
      'ProjectDefinition2',
      'ViewGlobalThisAsAnyPWNED2',
    ]);
    const view = readFileSync(join(out, 'entities', 'view-globalthis-as-any-pwned-2.view.ts'), 'utf8');
    expect(view.split('\n').filter((line) => line.includes('PWNED'))).toEqual([
      ' * View view *\\/ (globalThis as any)[`PWNED`] = 2; /*, as generated from the database (`npm run generate`): served read-only,',
      "@ViewEntity({ name: 'view */ (globalThis as any)[`PWNED`] = 2; /*', synchronize: false })",
      'export class ViewGlobalThisAsAnyPWNED2 {',
    ]);
  });

  it('leaves out what TypeORM or JavaScript cannot take, naming each, and generates the rest', () => {
    expect(result.skipped).toEqual([
      'table a.b: its name holds a dot, which TypeORM reads as a schema separator',
      "table it's: its name holds a single quote, which TypeORM cannot read",
      ...['constructor', '__proto__', 'toString', 'hasOwnProperty'].map(
        (name) =>
          `column ${EVIL}.${name}: named after a property of every JavaScript object, which Tessera cannot serve (the column stays in the database)`,
      ),
      'column needs_constructor.constructor: named after a property of every JavaScript object, which Tessera cannot serve (the column stays in the database; it is NOT NULL without a default, so an insert through the API succeeds only where the database fills it, e.g. by a trigger)',
      `column ${VIEW}.lit: an expression SQLite gives no type, which Tessera cannot serve (left out of the view's entity; CAST it in the view, e.g. CAST(... AS TEXT), to serve it)`,
    ]);
    expect(result.views).toEqual([VIEW]);
    expect(result.computed).toEqual(['computed.twice']);
  });

  it('writes files the strict compiler accepts', () => {
    const config = join(GENERATED, 'tsconfig.hostile.json');
    writeFileSync(
      config,
      JSON.stringify({
        extends: '../../tsconfig.json',
        compilerOptions: { noEmit: true, types: ['node'] },
        include: ['hostile/**/*.ts'],
        exclude: [],
      }),
    );
    execFileSync(process.execPath, [join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc'), '-p', config], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
      stdio: 'pipe',
    });
  });

  describe('served', () => {
    let t: TestApp;
    let api: Api;
    beforeAll(async () => {
      t = await startTestApp(target, { project, databaseUrl: source.url });
      await createUser(t, { login: 'odd', password: 'Password1', roles: ['Full access'] });
      api = await apiAs(t, 'odd');
    });
    afterAll(async () => {
      await t.close();
    });

    it('stores and reads back columns with odd names, and the defaults as the database wrote them', async () => {
      const path = `/${encodeURIComponent(EVIL)}`;
      const row = {
        "a'b": 'q',
        'c"d': 'dq',
        'back\\slash': 'b',
        'new\nline': 'n',
        'ls\u2028sep': 's',
        '${x}': 'x',
        é: 'e',
        'x` y': 'y',
        class: 'c',
      };
      await api.post(path, row).expect(201);
      const [read] = (await api.get(path).expect(200)).body as Array<Record<string, unknown>>;
      expect(read).toMatchObject({ ...row, d1: "'); process.exit(1); //", d2: "it's */ x" });
      expect(Object.keys(read!)).not.toEqual(expect.arrayContaining(['constructor']));
      expect(Object.keys(read!)).not.toEqual(expect.arrayContaining(['toString']));
      // The view over it, read-only, its odd names and a definition holding code in a string served as they are.
      expect((await api.get(`/${encodeURIComponent(VIEW)}`).expect(200)).body).toEqual([{ "a'b": 'q', 'c"d': 'dq', 'v */ w': 'n' }]);
    });

    it('serves the table with a computed column, the column read-only', async () => {
      expect(((await api.post('/computed', { id: 4 }).expect(201)).body as { txsummary: unknown[] }).txsummary).toEqual([
        expect.objectContaining({ id: 4, twice: 8 }),
      ]);
      await api.post('/computed', { id: 5, twice: 10 }).expect(400);
    });

    it('its relation named after a column constructor_id takes another name', async () => {
      await api.post('/project_definition', { id: 1 }).expect(201);
      await api.post('/project_definition', { id: 2, constructor_id: 1 }).expect(201);
      expect(Object.keys(project.entities.find((e) => e.name === 'ProjectDefinition2')!.prototype as object)).not.toContain('constructor');
    });
  });
});

/** Per server: mixed case, two keys to one parent, a key to a unique column, a composite key, 64-bit integers, enums, computed columns, a view. */
const DIALECT_SQL: Record<'mysql' | 'postgres', string[]> = {
  postgres: [
    `CREATE TYPE mood AS ENUM ('happy', 'sad')`,
    `CREATE TABLE "Parent" ("Id" SERIAL PRIMARY KEY, "Code" VARCHAR(10) NOT NULL UNIQUE, "k1" INT NOT NULL, "k2" INT NOT NULL, UNIQUE ("k1", "k2"))`,
    `CREATE TABLE "child" (
      "id" BIGSERIAL PRIMARY KEY,
      "parent_id" INT REFERENCES "Parent" ("Id"), "second_parent_id" INT REFERENCES "Parent" ("Id"),
      "parent_code" VARCHAR(10) REFERENCES "Parent" ("Code"),
      "k1" INT, "k2" INT, FOREIGN KEY ("k1", "k2") REFERENCES "Parent" ("k1", "k2"),
      "big" BIGINT DEFAULT 9007199254740993, "at" TIMESTAMP WITH TIME ZONE DEFAULT now(), "m" mood DEFAULT 'happy',
      "note" TEXT DEFAULT '''); process.exit(1); //', "x */ y" TEXT, "tags" TEXT[] DEFAULT '{a,b}'
    )`,
    `CREATE VIEW "child_view" AS SELECT * FROM "child"`,
    `CREATE TABLE "computed" ("id" INT PRIMARY KEY, "twice" INT GENERATED ALWAYS AS ("id" * 2) STORED)`,
    `CREATE TABLE "it's" ("id" INT PRIMARY KEY)`,
    // TypeORM's PostgreSQL reader writes table names into its queries unescaped, and sends them in one string: this ran.
    `CREATE TABLE "x'); CREATE TABLE pwned (id INT); --" ("id" INT PRIMARY KEY)`,
    `CREATE TYPE "m'o" AS ENUM ('a')`,
    `CREATE TABLE "quoted_type" ("id" INT PRIMARY KEY, "c" "m'o")`,
  ],
  mysql: [
    `CREATE TABLE Parent (Id INT AUTO_INCREMENT PRIMARY KEY, Code VARCHAR(10) NOT NULL UNIQUE, k1 INT NOT NULL, k2 INT NOT NULL, UNIQUE (k1, k2))`,
    `CREATE TABLE child (
      id BIGINT UNSIGNED AUTO_INCREMENT PRIMARY KEY,
      parent_id INT REFERENCES Parent (Id), second_parent_id INT, parent_code VARCHAR(10), k1 INT, k2 INT,
      FOREIGN KEY (parent_id) REFERENCES Parent (Id), FOREIGN KEY (second_parent_id) REFERENCES Parent (Id),
      FOREIGN KEY (parent_code) REFERENCES Parent (Code), FOREIGN KEY (k1, k2) REFERENCES Parent (k1, k2),
      big BIGINT DEFAULT 9007199254740993, flag TINYINT(1) NOT NULL DEFAULT 1, small TINYINT(4) DEFAULT 7, u INT UNSIGNED DEFAULT 4000000000,
      at TIMESTAMP NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, m ENUM('happy', 'sad') DEFAULT 'happy',
      note TEXT DEFAULT '''); process.exit(1); //', \`x */ y\` TEXT
    )`,
    `CREATE VIEW child_view AS SELECT * FROM child`,
    `CREATE TABLE computed (id INT PRIMARY KEY, twice INT GENERATED ALWAYS AS (id * 2) STORED)`,
    "CREATE TABLE `it's` (id INT PRIMARY KEY)",
  ],
};

for (const target of testTargets().filter((t) => t.adapter === 'express' && t.database !== 'sqlite')) {
  const dialect = target.database as 'mysql' | 'postgres';
  describe(`generate from an odd schema [${target.database}]`, () => {
    let source: ScratchDatabase;
    let result: GenerateResult;
    let project: ProjectDefinition;

    beforeAll(async () => {
      ({ source, result, project } = await generateFromSql(dialect, DIALECT_SQL[dialect], `odd-${dialect}`, 'odd'));
    });
    afterAll(async () => {
      await source.drop();
    });

    it('generates the tables (the one with a computed column too) and the view, and says what it leaves out; runs no SQL a name holds', async () => {
      expect((await readSchema(parseDatabaseUrl(source.url))).tables.map((table) => table.name)).not.toContain('pwned');
      expect(result.files.filter((f) => f.startsWith('entities/'))).toEqual([
        'entities/child-view.view.ts',
        'entities/child.entity.ts',
        'entities/computed.entity.ts',
        'entities/parent.entity.ts',
      ]);
      expect(result.views).toEqual(['child_view']);
      expect(result.computed).toEqual(['computed.twice']);
      expect(result.skipped).toEqual([
        "table it's: its name holds a single quote, which TypeORM cannot read",
        ...(dialect === 'postgres'
          ? [
              "table quoted_type: its column c has type m'o, a name holding a quote, which TypeORM cannot read",
              "table x'); CREATE TABLE pwned (id INT); --: its name holds a single quote, which TypeORM cannot read",
            ]
          : []),
        // MariaDB's ENUM is served (a string held to its values); PostgreSQL's enum type is not (yet), its text[] is (a JSON array).
        ...(dialect === 'postgres'
          ? [
              'column child.m: type mood, which Tessera cannot serve (the column stays in the database)',
              "column child_view.m: type mood, which Tessera cannot serve (left out of the view's entity)",
            ]
          : []),
      ]);
    });

    it('serves mixed-case names, two keys to one parent, a key to a unique column and a composite key; a 64-bit default beyond 2^53 as a string', async () => {
      const t = await startTestApp(target, { project, databaseUrl: source.url });
      try {
        await createUser(t, { login: 'odd', password: 'Password1', roles: ['Full access'] });
        const api = await apiAs(t, 'odd');
        await api.post('/Parent', { Code: 'P1', k1: 1, k2: 2 }).expect(201);
        const child = { parent_id: 1, second_parent_id: 1, parent_code: 'P1', k1: 1, k2: 2, note: 'x', 'x */ y': 'y' };
        await api.post('/child', child).expect(201);
        await api.post('/child', { ...child, k2: 3 }).expect(422); // no parent (1, 3): the composite key holds
        const [read] = (await api.get('/child').expect(200)).body as Array<Record<string, unknown>>;
        expect(read).toMatchObject({ ...child, big: '9007199254740993' });
        if (dialect === 'mysql') expect(read).toMatchObject({ flag: true, small: 7, u: 4000000000, m: 'happy' });
        if (dialect === 'postgres') expect(read).toMatchObject({ tags: ['a', 'b'] });
        await api.post('/computed', { id: 4 }).expect(201);
        expect((await api.get('/computed').expect(200)).body).toEqual([expect.objectContaining({ id: 4, twice: 8 })]);
        // The view over it: the same row, read-only, its odd column name included.
        expect((await api.get('/child_view').expect(200)).body).toEqual([expect.objectContaining({ ...child, big: '9007199254740993' })]);
      } finally {
        await t.close();
      }
    });

    it('its baseline migration gives an empty database the same tables: enum, array, unsigned, ON UPDATE and computed columns included', async () => {
      await onEmptyDatabase(target, project, async (_app, made) => {
        const before = await readSchema(parseDatabaseUrl(source.url));
        const ours = (s: SchemaSnapshot): SchemaSnapshot['tables'] =>
          s.tables.filter((table) => ['Parent', 'child', 'computed'].includes(table.name));
        expect(ours(made)).toEqual(ours(before));
        // The view too, from the database's own definition: the same columns.
        expect(made.views.map((view) => [view.name, view.columns.map((c) => c.name)])).toEqual(
          before.views.map((view) => [view.name, view.columns.map((c) => c.name)]),
        );
        if (dialect === 'mysql') {
          const at = made.tables.find((table) => table.name === 'child')!.columns.find((c) => c.name === 'at');
          expect(at).toMatchObject({ onUpdate: expect.stringMatching(/^current_timestamp/i) as string });
        }
      });
    });
  });
}

/**
 * Per server: types, enums and domains (PostgreSQL) and enum and set values (MariaDB) whose names
 * or values hold quotes, and names TypeORM writes unescaped (into its own queries, which fail or run
 * what the name holds, or into the baseline migration's DDL).
 */
const QUOTED_SQL: Record<'mysql' | 'postgres', string[]> = {
  postgres: [
    `CREATE TYPE "m""od" AS ENUM ('a')`,
    `CREATE TYPE "comp""o" AS ("a" INT)`,
    `CREATE DOMAIN "d""om" AS TEXT`,
    `CREATE DOMAIN "d'om" AS TEXT CHECK (VALUE <> '')`,
    `CREATE DOMAIN "over_quoted" AS "m""od"`,
    `CREATE TYPE "plain" AS ENUM ('it''s', 'say "hi"', 'back\\slash', 'a,b')`,
    `CREATE TABLE "enum_type" ("id" INT PRIMARY KEY, "c" "m""od")`,
    `CREATE TABLE "enum_array" ("id" INT PRIMARY KEY, "c" "m""od"[])`,
    `CREATE TABLE "composite" ("id" INT PRIMARY KEY, "c" "comp""o")`,
    `CREATE TABLE "over_domain" ("id" INT PRIMARY KEY, "c" "over_quoted")`,
    // TypeORM's reader writes this column's name between single quotes, unescaped: this ran.
    `CREATE TABLE "quoted_column" ("id" INT PRIMARY KEY, "c'; CREATE TABLE pwned_column (id INT); --" TEXT[])`,
    `CREATE TABLE "dquote_column" ("id" INT PRIMARY KEY, "c""d" TEXT)`,
    `CREATE TABLE "q""t" ("id" INT PRIMARY KEY)`,
    `CREATE TABLE "dquote_unique" ("id" INT PRIMARY KEY, "v" INT, CONSTRAINT "u""q" UNIQUE ("v"))`,
    `CREATE TABLE "domains" ("id" INT PRIMARY KEY, "a" "d""om", "b" "d'om" DEFAULT 'x')`,
    `CREATE TABLE "enums" ("id" INT PRIMARY KEY, "e" "plain" DEFAULT 'it''s', "name" TEXT)`,
  ],
  mysql: [
    'CREATE TABLE `b\\` (id INT PRIMARY KEY)',
    'CREATE TABLE `bt``x` (id INT PRIMARY KEY)',
    'CREATE TABLE bt_column (id INT PRIMARY KEY, `c``d` INT)',
    'CREATE TABLE bt_unique (id INT PRIMARY KEY, v INT, UNIQUE KEY `u``q` (v))',
    "CREATE TABLE enum_backslash (id INT PRIMARY KEY, e ENUM('b\\\\s'))",
    `CREATE TABLE enums (id INT PRIMARY KEY, e ENUM('it''s', 'say "hi"', 'a,b') DEFAULT 'it''s', s SET('x''y', 'c"d'), \`a'b\` INT, \`c"d\` INT, name VARCHAR(10))`,
  ],
};

/** The tables generated from QUOTED_SQL, the rest being left out. */
const QUOTED_SERVED: Record<'mysql' | 'postgres', string[]> = { postgres: ['domains', 'enums'], mysql: ['enums'] };

for (const target of testTargets().filter((t) => t.adapter === 'express' && t.database !== 'sqlite')) {
  const dialect = target.database as 'mysql' | 'postgres';
  describe(`generate from quoted type, enum and domain names [${target.database}]`, () => {
    let source: ScratchDatabase;
    let result: GenerateResult;
    let project: ProjectDefinition;

    beforeAll(async () => {
      ({ source, result, project } = await generateFromSql(dialect, QUOTED_SQL[dialect], `quoted-${dialect}`, 'quoted'));
    });
    afterAll(async () => {
      await source.drop();
    });

    it('leaves out each table whose names it cannot quote, saying why, runs nothing a name holds, and generates the rest', async () => {
      const ddl = "which TypeORM would write unescaped into the baseline migration's SQL";
      expect(result.skipped).toEqual(
        dialect === 'postgres'
          ? [
              `table composite: its column c has type comp"o, a name holding a quote, which TypeORM cannot read`,
              `table dquote_column: its column c"d has a name holding a double quote, ${ddl}`,
              `table dquote_unique: its index or constraint u"q has a name holding a double quote, ${ddl}`,
              `table enum_array: its column c has type m"od[], a name holding a quote, which TypeORM cannot read`,
              `table enum_type: its column c has type m"od, a name holding a quote, which TypeORM cannot read`,
              `table over_domain: its column c has type m"od, a name holding a quote, which TypeORM cannot read`,
              `table q"t: its name holds a double quote, ${ddl}`,
              `table quoted_column: its column c'; CREATE TABLE pwned_column (id INT); --, of a user-defined or array type, has a name holding a single quote, which TypeORM cannot read`,
              'column enums.e: type plain, which Tessera cannot serve (the column stays in the database)',
            ]
          : [
              'table b\\: its name holds a backslash, which TypeORM writes into its SQL where MySQL/MariaDB take it for an escape',
              `table bt_column: its column c\`d has a name holding a backtick, ${ddl}`,
              `table bt_unique: its index or constraint u\`q has a name holding a backtick, ${ddl}`,
              `table bt\`x: its name holds a backtick, ${ddl}`,
              'table enum_backslash: its column e has an enum or set value holding a backslash, which TypeORM would write back as an escape',
            ],
      );
      expect(project.entities.map((e) => e.name).sort()).toEqual(
        QUOTED_SERVED[dialect].map((name) => name[0]!.toUpperCase() + name.slice(1)),
      );
      expect((await readSchema(parseDatabaseUrl(source.url))).tables.map((table) => table.name)).not.toContain('pwned_column');
    });

    it('serves the rest: columns of quoted domains as their base type, the domain still checking', async () => {
      const t = await startTestApp(target, { project, databaseUrl: source.url });
      try {
        await createUser(t, { login: 'odd', password: 'Password1', roles: ['Full access'] });
        const api = await apiAs(t, 'odd');
        if (dialect === 'postgres') {
          await api.post('/domains', { id: 1, a: 'x"y', b: "it's" }).expect(201);
          await api.post('/domains', { id: 2, b: '' }).expect(422);
          expect((await api.get('/domains').expect(200)).body).toEqual([expect.objectContaining({ id: 1, a: 'x"y', b: "it's" })]);
        } else {
          await api.post('/enums', { id: 1, "a'b": 1, 'c"d': 2, name: 'n' }).expect(201);
          expect((await api.get('/enums').expect(200)).body).toEqual([
            expect.objectContaining({ id: 1, "a'b": 1, 'c"d': 2, name: 'n', e: "it's", s: null }),
          ]);
          // Enum and set values with quotes and commas, as the server keeps them: written, read back, and checked.
          await api.post('/enums', { id: 2, e: 'a,b', s: `c"d,x'y` }).expect(201);
          expect((await api.get('/enums/2').expect(200)).body).toEqual([expect.objectContaining({ e: 'a,b', s: `x'y,c"d` })]);
          await api.post('/enums', { id: 3, e: 'a' }).expect(400);
        }
        await api.post('/enums', { id: 7, name: 'defaulted' }).expect(201);
      } finally {
        await t.close();
      }
    });

    it('its baseline migration gives an empty database the same tables, enum values with quotes and commas included', async () => {
      const empty = await startTestApp(target, { project });
      try {
        const ours = (s: SchemaSnapshot): SchemaSnapshot['tables'] =>
          s.tables.filter((table) => QUOTED_SERVED[dialect].includes(table.name));
        const made = ours(await readSchema(parseDatabaseUrl(empty.config.database.url)));
        expect(made).toEqual(ours(await readSchema(parseDatabaseUrl(source.url))));
        const e = made.find((table) => table.name === 'enums')!.columns.find((c) => c.name === 'e');
        expect(e?.enum).toEqual(dialect === 'postgres' ? ["it's", 'say "hi"', 'back\\slash', 'a,b'] : ["it's", 'say "hi"', 'a,b']);
      } finally {
        await empty.close();
      }
    });
  });
}

it('orders tables by code units, the same on every machine whatever its locale (localeCompare is not)', async () => {
  const source = await createScratchDatabase('sqlite');
  try {
    const names = ['b', 'a_b', 'aB', 'C', '_x', 'é'];
    await runSql(
      source,
      names.map((name) => `CREATE TABLE "${name}" ("id" INTEGER NOT NULL PRIMARY KEY)`),
    );
    const schema = await readSchema(parseDatabaseUrl(source.url));
    expect(schema.tables.map((t) => t.name)).toEqual(['C', '_x', 'aB', 'a_b', 'b', 'é']);
  } finally {
    await source.drop();
  }
});

describe('generate: where --out may lead', () => {
  const empty = (out: string, force = true): GenerateResult =>
    generateProject({ source: { kind: 'empty' }, name: 'x', out, force, root: PROJECT_ROOT });

  it("never replaces Tessera's own source: src/demo holds a project.ts, and --force does not remove it", () => {
    const demo = readFileSync(join(PROJECT_ROOT, 'src', 'demo', 'project.ts'), 'utf8');
    expect(() => empty(join(PROJECT_ROOT, 'src', 'demo'))).toThrow(/--out must be a folder inside/);
    expect(() => empty(join(PROJECT_ROOT, 'src', 'new-folder'))).toThrow(/--out must be a folder inside/);
    expect(readFileSync(join(PROJECT_ROOT, 'src', 'demo', 'project.ts'), 'utf8')).toBe(demo);
  });

  it('refuses a folder outside, also through a symbolic link inside that leads out', () => {
    expect(() => empty(resolve(PROJECT_ROOT, '..', 'x'))).toThrow(/--out must be a folder inside/);
    const away = mkdtempSync(join(tmpdir(), 'tessera-out-'));
    const link = join(GENERATED, 'link-out');
    rmSync(link, { force: true });
    symlinkSync(away, link);
    try {
      expect(() => empty(join(link, 'p'))).toThrow(/--out must be a folder inside/);
      expect(existsSync(join(away, 'p'))).toBe(false);
    } finally {
      rmSync(link, { force: true });
      rmSync(away, { recursive: true, force: true });
    }
  });
});

if (testTargets().some((t) => t.database === 'postgres')) {
  describe('generate from a PostgreSQL schema other than public (search_path) [postgres]', () => {
    let source: ScratchDatabase;
    const name = (url: string): string => new URL(url).pathname.slice(1);
    const tables = async (url: string): Promise<string[]> => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ name: string }>(
          "SELECT table_schema || '.' || table_name AS name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1",
        );
        return rows.map((row) => row.name);
      } finally {
        await client.end();
      }
    };
    beforeEach(async () => {
      source = await createScratchDatabase('postgres');
    });
    afterEach(async () => {
      await source.drop();
    });

    it('reads the tables of the schema the search_path names', async () => {
      await runSql(source, [
        'CREATE SCHEMA other',
        'CREATE TABLE other.thing (id SERIAL PRIMARY KEY, name TEXT)',
        'CREATE TABLE other."Odd" ("Id" INT PRIMARY KEY, thing_id INT REFERENCES other.thing (id))',
        'CREATE TABLE public.elsewhere (id INT PRIMARY KEY)',
        `ALTER DATABASE "${name(source.url)}" SET search_path = other`,
      ]);
      const schema = await readSchema(parseDatabaseUrl(source.url));
      expect(schema.tables.map((t) => [t.name, t.foreignKeys.map((fk) => fk.referencedTable)])).toEqual([
        ['Odd', ['thing']],
        ['thing', []],
      ]);
    });

    it('refuses a schema whose name holds a single quote, running none of it', async () => {
      const evil = `s'); CREATE TABLE public.pwned (id INT); --`;
      await runSql(source, [
        `CREATE SCHEMA "${evil}"`,
        `CREATE TABLE "${evil}".t (id INT PRIMARY KEY)`,
        `ALTER DATABASE "${name(source.url)}" SET search_path = "${evil}"`,
      ]);
      await expect(readSchema(parseDatabaseUrl(source.url))).rejects.toThrow(/holds a single quote, which TypeORM cannot read/);
      expect(await tables(source.url)).toEqual([`${evil}.t`]);
    });
  });
}
