import { existsSync } from 'node:fs';
import { DataSource, type DataSourceOptions, type QueryRunner, type Table } from 'typeorm';
import type { DatabaseTarget } from '../config/database-url.js';
import { asTheServerIs } from './server-flavour.js';

/** One column as TypeORM reads it back from the database (the same facts its schema diff compares). */
export interface SchemaColumn {
  name: string;
  /** The driver's type name, e.g. `varchar`, `character varying`, `int`, `numeric`, `datetime`. */
  type: string;
  length?: string;
  precision?: number;
  scale?: number;
  nullable: boolean;
  /** The default as SQL text (`'draft'`, `0`, `CURRENT_TIMESTAMP`), absent when none. */
  default?: string;
  primary: boolean;
  generated?: 'increment' | 'identity' | 'uuid' | 'rowid';
  /** A single-column unique constraint on this column. */
  unique: boolean;
  /** MySQL/MariaDB: an UNSIGNED number. */
  unsigned?: true;
  /** PostgreSQL: an array of `type` (`integer[]`). */
  array?: true;
  /** MySQL/MariaDB: `ON UPDATE CURRENT_TIMESTAMP` and the like, as SQL text. */
  onUpdate?: string;
  /** The values of an enum column, and on PostgreSQL the name of its type. */
  enum?: string[];
  enumName?: string;
}

export interface SchemaForeignKey {
  name?: string;
  columns: string[];
  referencedTable: string;
  referencedColumns: string[];
  onDelete?: string;
  onUpdate?: string;
}

export interface SchemaIndex {
  name?: string;
  columns: string[];
  unique: boolean;
}

export interface SchemaTable {
  name: string;
  columns: SchemaColumn[];
  primaryKey: string[];
  foreignKeys: SchemaForeignKey[];
  /** Unique constraints of several columns, and named ones TypeORM keeps apart from the column. */
  uniques: SchemaIndex[];
  indices: SchemaIndex[];
}

export interface SchemaSnapshot {
  kind: DatabaseTarget['kind'];
  tables: SchemaTable[];
  /** Tables TypeORM cannot read, and why, one line each (`table a.b: ...`). */
  unread: string[];
}

function optionsFor(target: DatabaseTarget, entities: Function[]): DataSourceOptions {
  const common = { entities, migrations: [], synchronize: false, logging: false };
  switch (target.kind) {
    case 'sqlite':
      if (!existsSync(target.sqlitePath!)) throw new Error(`no SQLite database at ${target.sqlitePath!}`);
      return { ...common, type: 'better-sqlite3', database: target.sqlitePath!, readonly: true };
    case 'mysql':
    case 'mariadb':
      return {
        ...common,
        type: target.kind,
        url: target.url.replace(/^mariadb:/, 'mysql:'),
        poolSize: 1,
        timezone: 'Z',
      };
    case 'postgres':
      return { ...common, type: 'postgres', url: target.url, poolSize: 1 };
  }
}

/** The base tables of the database (or schema) the URL names; TypeORM's getTables() without names reads every schema. */
const TABLE_NAMES: Record<DatabaseTarget['kind'], string> = {
  sqlite: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
  mysql: "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'",
  mariadb: "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'",
  postgres: "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
};

/** By UTF-16 code units: the same order on every machine, whatever its locale (localeCompare is not). */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const byName = <T extends { name?: string; columns: string[] }>(a: T, b: T): number =>
  compare(a.name ?? a.columns.join(','), b.name ?? b.columns.join(','));

function plainTable(table: Table): SchemaTable {
  const uniqueColumns = new Set(
    table.uniques
      .filter((u) => u.columnNames.length === 1 && table.findColumnByName(u.columnNames[0]!)?.isUnique)
      .flatMap((u) => u.columnNames),
  );
  return {
    name: table.name,
    columns: table.columns.map((c) => ({
      name: c.name,
      type: c.type,
      ...(c.length ? { length: c.length } : {}),
      ...(c.precision !== undefined && c.precision !== null ? { precision: c.precision } : {}),
      ...(c.scale !== undefined ? { scale: c.scale } : {}),
      nullable: c.isNullable,
      ...(c.default !== undefined && c.default !== null ? { default: String(c.default) } : {}),
      primary: c.isPrimary,
      ...(c.isGenerated && c.generationStrategy ? { generated: c.generationStrategy } : {}),
      unique: c.isUnique || uniqueColumns.has(c.name),
      ...(c.unsigned ? { unsigned: true as const } : {}),
      ...(c.isArray ? { array: true as const } : {}),
      ...(c.onUpdate ? { onUpdate: c.onUpdate } : {}),
      ...(c.enum ? { enum: [...c.enum] } : {}),
      ...(c.enumName ? { enumName: c.enumName } : {}),
    })),
    primaryKey: table.primaryColumns.map((c) => c.name),
    foreignKeys: table.foreignKeys
      .map((fk) => ({
        ...(fk.name ? { name: fk.name } : {}),
        columns: [...fk.columnNames],
        referencedTable: fk.referencedTableName,
        referencedColumns: [...fk.referencedColumnNames],
        ...(fk.onDelete ? { onDelete: fk.onDelete } : {}),
        ...(fk.onUpdate ? { onUpdate: fk.onUpdate } : {}),
      }))
      .sort(byName),
    uniques: table.uniques.map((u) => ({ ...(u.name ? { name: u.name } : {}), columns: [...u.columnNames], unique: true })).sort(byName),
    indices: table.indices
      .map((i) => ({ ...(i.name ? { name: i.name } : {}), columns: [...i.columnNames], unique: i.isUnique }))
      .sort(byName),
  };
}

/**
 * Opens a data source on the target for reading its schema. A `mysql://` URL that leads to a
 * MariaDB server is read with TypeORM's MariaDB driver: the MySQL one misreads MariaDB's column
 * defaults (it quotes literals MariaDB quotes already, and takes `NULL` for a default).
 */
/** A MariaDB server behind a mysql:// URL is read as MariaDB: as MySQL, TypeORM double-quotes its defaults and reads NULL as one. */
async function openForSchema(target: DatabaseTarget, entities: Function[] = []): Promise<DataSource> {
  const dataSource = new DataSource(optionsFor(await asTheServerIs(target), entities));
  await dataSource.initialize();
  return dataSource;
}

/** MySQL columns declared BOOLEAN are tinyint(1), which TypeORM reads back as a plain tinyint. */
const MYSQL_BOOLEANS =
  "SELECT TABLE_NAME AS tableName, COLUMN_NAME AS columnName FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND COLUMN_TYPE = 'tinyint(1)'";

const COLUMN_POSITIONS = {
  mysql:
    'SELECT TABLE_NAME AS tableName, COLUMN_NAME AS columnName, ORDINAL_POSITION AS position FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()',
  postgres:
    'SELECT table_name AS "tableName", column_name AS "columnName", ordinal_position AS position FROM information_schema.columns WHERE table_schema = current_schema()',
};

/** PostgreSQL hands TypeORM the columns in no fixed order: put them in the table's own, so the output is the same on every run. */
async function sortColumnsAsDeclared(queryRunner: QueryRunner, kind: 'mysql' | 'mariadb' | 'postgres', tables: Table[]): Promise<void> {
  const rows = (await queryRunner.query(COLUMN_POSITIONS[kind === 'postgres' ? 'postgres' : 'mysql'])) as Array<{
    tableName: string;
    columnName: string;
    position: number | string;
  }>;
  const position = new Map(rows.map((r) => [`${r.tableName}\u0000${r.columnName}`, Number(r.position)]));
  for (const table of tables) {
    const at = (name: string): number => position.get(`${table.name}\u0000${name}`) ?? Number.MAX_SAFE_INTEGER;
    table.columns.sort((a, b) => at(a.name) - at(b.name));
  }
}

/**
 * TypeORM finds SQLite's AUTOINCREMENT key only when its name is in double quotes, as TypeORM
 * writes it; a hand-written `id INTEGER PRIMARY KEY AUTOINCREMENT` is missed. Such a key is
 * filled by SQLite, so the entity must declare it generated.
 */
async function findSqliteAutoincrement(queryRunner: QueryRunner, tables: Table[]): Promise<void> {
  for (const table of tables) {
    const [row] = (await queryRunner.query("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [table.name])) as Array<{
      sql: string;
    }>;
    const match = /[(,]\s*["`[]?([^"`\]\s,(]+)["`\]]?\s+integer\s+primary\s+key\s+autoincrement\b/i.exec(row?.sql ?? '');
    const column = match ? table.findColumnByName(match[1]!) : undefined;
    if (column && !column.isGenerated) {
      column.isGenerated = true;
      column.generationStrategy = 'increment';
    }
  }
}

/** Tables with a generated (computed) column: TypeORM reads those from its typeorm_metadata table, which a database it did not make lacks. */
const GENERATED_COLUMN_TABLES: Record<DatabaseTarget['kind'], string> = {
  sqlite:
    "SELECT DISTINCT m.name AS name FROM sqlite_master m JOIN pragma_table_xinfo(m.name) x WHERE m.type = 'table' AND x.hidden IN (2, 3)",
  mysql:
    "SELECT DISTINCT TABLE_NAME AS name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND GENERATION_EXPRESSION <> ''",
  mariadb:
    "SELECT DISTINCT TABLE_NAME AS name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND GENERATION_EXPRESSION <> ''",
  postgres:
    "SELECT DISTINCT table_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND is_generated = 'ALWAYS'",
};

/** The database can be reached, but its schema cannot be read safely. */
export class UnreadableSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableSchemaError';
  }
}

/** PostgreSQL: tables with a column of a type (an enum) whose name holds a quote, which TypeORM's reader writes into SQL unescaped. */
const QUOTED_TYPE_TABLES =
  "SELECT DISTINCT table_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND data_type = 'USER-DEFINED' AND udt_name LIKE '%''%'";

/** Why TypeORM cannot read a table (it would fail on it, or misread it), if it cannot. */
async function unreadable(
  queryRunner: QueryRunner,
  kind: DatabaseTarget['kind'],
  name: string,
  generated: Set<string>,
  quotedTypes: Set<string>,
): Promise<string | undefined> {
  // TypeORM takes a dot for the separator of a schema name; its SQLite reader writes names into SQL unescaped.
  if (name.includes('.')) return 'its name holds a dot, which TypeORM reads as a schema separator';
  if (name.includes("'")) return 'its name holds a single quote, which TypeORM cannot read';
  if (kind === 'sqlite' && name.includes('"')) return 'its name holds a double quote, which TypeORM cannot read on SQLite';
  if (quotedTypes.has(name)) return 'a column of it has a type whose name holds a quote, which TypeORM cannot read';
  if (generated.has(name)) return 'it has a generated (computed) column, which TypeORM cannot read from a database it did not create';
  if (kind !== 'sqlite') return undefined;
  const indices = (await queryRunner.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?", [name])) as Array<{
    name: string;
  }>;
  if (indices.some((i) => /['"]/.test(i.name))) return 'the name of an index of it holds a quote, which TypeORM cannot read on SQLite';
  return undefined;
}

/**
 * Groups of table names that differ only in case (`Customer`, `customer`: PostgreSQL and MariaDB
 * on Linux keep them apart), one line each. Resource names match ignoring case, so no URL could
 * tell them apart, and TypeORM's MySQL reader reads such a group as one table: none is read.
 */
function caseTwins(names: string[]): { names: Set<string>; lines: string[] } {
  const groups = new Map<string, string[]>();
  for (const name of [...names].sort(compare)) groups.set(name.toLowerCase(), [...(groups.get(name.toLowerCase()) ?? []), name]);
  const twins = [...groups.values()].filter((group) => group.length > 1);
  return {
    names: new Set(twins.flat()),
    lines: twins.map(
      (group) =>
        `tables ${group.slice(0, -1).join(', ')} and ${group.at(-1)!}: their names differ only in case, which resource names (matched ignoring case) cannot tell apart; rename all but one to serve it`,
    ),
  };
}

/**
 * Reads the tables of an existing database with TypeORM's own introspection (no entities, no
 * migrations, nothing written), as plain data, sorted by table name. Tessera's own tables
 * (`tessera_*`) are left out.
 */
export async function readSchema(target: DatabaseTarget): Promise<SchemaSnapshot> {
  const dataSource = await openForSchema(target);
  try {
    const queryRunner = dataSource.createQueryRunner();
    try {
      if (target.kind === 'postgres') {
        // TypeORM writes the schema name into its queries unescaped, as it does table names.
        const [{ schema }] = (await queryRunner.query('SELECT current_schema() AS schema')) as [{ schema: string | null }];
        if (schema === null || schema.includes("'"))
          throw new UnreadableSchemaError(
            `its schema ${JSON.stringify(schema)} (search_path) is missing or holds a single quote, which TypeORM cannot read`,
          );
      }
      const listed = (await queryRunner.query(TABLE_NAMES[target.kind])) as Array<{ name: string }>;
      const names: string[] = [];
      const unread: string[] = [];
      const generated = new Set(
        ((await queryRunner.query(GENERATED_COLUMN_TABLES[target.kind])) as Array<{ name: string }>).map((row) => row.name),
      );
      const quotedTypes = new Set(
        target.kind === 'postgres' ? ((await queryRunner.query(QUOTED_TYPE_TABLES)) as Array<{ name: string }>).map((row) => row.name) : [],
      );
      const project = listed.map((row) => row.name).filter((name) => !name.toLowerCase().startsWith('tessera_'));
      const twins = caseTwins(project);
      unread.push(...twins.lines);
      for (const name of project) {
        if (twins.names.has(name)) continue;
        const why = await unreadable(queryRunner, target.kind, name, generated, quotedTypes);
        if (why) unread.push(`table ${name}: ${why}`);
        else names.push(name);
      }
      const tables = names.length === 0 ? [] : await queryRunner.getTables(names);
      if (target.kind === 'sqlite') await findSqliteAutoincrement(queryRunner, tables);
      else await sortColumnsAsDeclared(queryRunner, target.kind, tables);
      if (target.kind === 'mysql' || target.kind === 'mariadb') {
        const booleans = (await queryRunner.query(MYSQL_BOOLEANS)) as Array<{ tableName: string; columnName: string }>;
        for (const { tableName, columnName } of booleans) {
          const column = tables.find((t) => t.name === tableName)?.findColumnByName(columnName);
          if (column) column.type = 'boolean';
        }
      }
      return {
        kind: target.kind,
        tables: tables
          .filter((t) => !t.name.toLowerCase().startsWith('tessera_'))
          .map(plainTable)
          .sort((a, b) => compare(a.name, b.name)),
        unread: unread.sort(compare),
      };
    } finally {
      await queryRunner.release();
    }
  } finally {
    await dataSource.destroy();
  }
}

/**
 * The statements TypeORM's schema synchronization would run to make the database match the
 * given entities (nothing is run): empty when the entities describe the database exactly.
 */
export async function schemaDiff(target: DatabaseTarget, entities: Function[]): Promise<string[]> {
  const dataSource = await openForSchema(target, entities);
  try {
    const log = await dataSource.driver.createSchemaBuilder().log();
    return log.upQueries.map((query) => query.query);
  } finally {
    await dataSource.destroy();
  }
}
