import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDatabaseUrl } from '../src/config/database-url.js';
import { PROJECT_ROOT } from '../src/config/project-root.js';
import { readSchema } from '../src/database/schema-reader.js';
import { generateProject, type GenerateResult } from '../src/generator/generate-project.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import { apiAs, type Api } from './support/api.js';
import { createUser } from './support/auth.js';
import { runSql } from './support/shop-schema.js';
import { createScratchDatabase, type ScratchDatabase } from './support/test-databases.js';
import { startTestApp, testTargets, type TestApp } from './support/test-app.js';

const GENERATED = join(PROJECT_ROOT, 'test', '.generated');

/** A table name that closes a doc comment and runs code, were it written into one as it is. */
const EVIL = 'evil */ (globalThis as any)[`PWNED`] = 1; /*';

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
    expect(project.entities.map((e) => e.name).sort()).toEqual(['EvilGlobalThisAsAnyPWNED1', 'ProjectDefinition2']);
  });

  it('leaves out what TypeORM or JavaScript cannot take, naming each, and generates the rest', () => {
    expect(result.skipped).toEqual([
      'table a.b: its name holds a dot, which TypeORM reads as a schema separator',
      'table computed: it has a generated column, which TypeORM cannot read on SQLite',
      "table it's: its name holds a quote, which TypeORM cannot read on SQLite",
      'table needs_constructor: its column constructor is named after a property of every JavaScript object, which Tessera cannot serve, and is required (NOT NULL without a default)',
      ...['constructor', '__proto__', 'toString', 'hasOwnProperty'].map(
        (name) =>
          `column ${EVIL}.${name}: named after a property of every JavaScript object, which Tessera cannot serve (the column stays in the database)`,
      ),
    ]);
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
    });

    it('its relation named after a column constructor_id takes another name', async () => {
      await api.post('/project_definition', { id: 1 }).expect(201);
      await api.post('/project_definition', { id: 2, constructor_id: 1 }).expect(201);
      expect(Object.keys(project.entities.find((e) => e.name === 'ProjectDefinition2')!.prototype as object)).not.toContain('constructor');
    });
  });
});
