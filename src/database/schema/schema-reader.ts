import { existsSync } from 'node:fs';
import { DataSource, type DataSourceOptions, type QueryRunner, type Table } from 'typeorm';
import type { DatabaseTarget } from '../../config/database-url.js';
import { asTheServerIs } from '../connection/server-flavour.js';
import { withoutTypeormMetadata } from './generated-columns.js';
import { generatedExpressions } from './generated-expressions.js';
import { viewDefinitions, type ViewDefinition } from './view-definitions.js';

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
  /**
   * A generated (computed) column, which the database computes from `asExpression` when the row
   * is written (`STORED`; MariaDB's `PERSISTENT`) or read (`VIRTUAL`); no write may set it.
   */
  generatedType?: 'VIRTUAL' | 'STORED';
  /** The expression of a generated column, as the database states it (SQL text, run only by a baseline migration). */
  asExpression?: string;
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
  /** MySQL/MariaDB: a FULLTEXT index. */
  fulltext?: true;
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

export type { ViewNeed } from './view-definitions.js';

export interface SchemaView extends ViewDefinition {
  name: string;
  /** The view's columns as the database reports their types (SQLite: the declared type of the column the view reads, none for an expression). */
  columns: SchemaColumn[];
}

export interface SchemaSnapshot {
  kind: DatabaseTarget['kind'];
  tables: SchemaTable[];
  /** The views, sorted by name (Tessera's own `tessera_*` left out). */
  views: SchemaView[];
  /** Tables and views TypeORM cannot read, and why, one line each (`table a.b: ...`, `view v: ...`). */
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

/** The views of that database (or schema). */
const VIEW_NAMES: Record<DatabaseTarget['kind'], string> = {
  sqlite: "SELECT name FROM sqlite_master WHERE type = 'view'",
  mysql: "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'VIEW'",
  mariadb: "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'VIEW'",
  postgres: "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'VIEW'",
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
      ...(c.generatedType ? { generatedType: c.generatedType, asExpression: c.asExpression ?? '' } : {}),
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
      .map((i) => ({
        ...(i.name ? { name: i.name } : {}),
        columns: [...i.columnNames],
        unique: i.isUnique,
        ...(i.isFulltext ? { fulltext: true as const } : {}),
      }))
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

/** MySQL/MariaDB enum and set columns, their values as the server spells them: `enum('a,b','it''s')`. */
const MYSQL_ENUMS =
  "SELECT TABLE_NAME AS tableName, COLUMN_NAME AS columnName, COLUMN_TYPE AS columnType FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND DATA_TYPE IN ('enum', 'set')";

/**
 * The values of `enum('a,b','it''s')`: `a,b` and `it's` (TypeORM's reader splits at every comma and
 * keeps the quotes doubled). Values holding a backslash leave their table out before (mysqlProblems).
 */
export function mysqlEnumValues(columnType: string): string[] {
  return [...columnType.matchAll(/'((?:[^']|'')*)'/g)].map((match) => match[1]!.replaceAll("''", "'"));
}

/** MariaDB's JSON is LONGTEXT with a column check `json_valid(col)`, which TypeORM reads as plain longtext. */
const MARIADB_JSON =
  "SELECT TABLE_NAME AS tableName, CONSTRAINT_NAME AS columnName FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() AND LEVEL = 'Column' AND CHECK_CLAUSE = CONCAT('json_valid(`', CONSTRAINT_NAME, '`)')";

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

/**
 * A SQLite type as TypeORM's reader splits it for a table's column: `varchar(50)` is varchar of
 * length 50, `decimal(4,2)` decimal of precision 4 and scale 2, lower case.
 */
function sqliteDeclaredType(declared: string): Pick<SchemaColumn, 'type' | 'length' | 'precision' | 'scale'> {
  const full = declared.toLowerCase().trim();
  const sized = /^(.*?)\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)$/.exec(full);
  if (!sized) return { type: full };
  const type = sized[1]!;
  if (sized[3] !== undefined || /^(decimal|numeric)$/.test(type)) {
    return { type, precision: Number(sized[2]), ...(sized[3] !== undefined ? { scale: Number(sized[3]) } : {}) };
  }
  return { type, length: sized[2]! };
}

/**
 * The columns of SQLite's views, by view: the declared type of the table column each reads,
 * none for an expression (SQLite gives it none). A view SQLite cannot read (it names a table
 * that is gone) is named in `unread` and left out.
 */
async function sqliteViewColumns(queryRunner: QueryRunner, views: string[], unread: string[]): Promise<Map<string, SchemaColumn[]>> {
  const columns = new Map<string, SchemaColumn[]>();
  for (const name of views) {
    try {
      const rows = (await queryRunner.query('SELECT name, type, "notnull" AS required FROM pragma_table_info(?)', [name])) as Array<{
        name: string;
        type: string;
        required: number;
      }>;
      columns.set(
        name,
        rows.map((row) => ({
          name: row.name,
          ...sqliteDeclaredType(row.type),
          nullable: row.required !== 1,
          primary: false,
          unique: false,
        })),
      );
    } catch (error) {
      unread.push(`view ${name}: SQLite cannot read it (${(error as Error).message})`);
    }
  }
  return columns;
}

/** MySQL/MariaDB's generated columns, and whether each is nullable. */
const MYSQL_GENERATED =
  "SELECT TABLE_NAME AS tableName, COLUMN_NAME AS columnName, IS_NULLABLE AS nullable FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND GENERATION_EXPRESSION <> ''";

const POSTGRES_GENERATED = `SELECT table_name AS "tableName", column_name AS "columnName", generation_expression AS expression
  FROM information_schema.columns WHERE table_schema = current_schema() AND is_generated = 'ALWAYS'`;

/** A table's CREATE TABLE as the database states it: SQLite's as it keeps it, MySQL/MariaDB's SHOW CREATE TABLE. */
async function createTableStatement(queryRunner: QueryRunner, kind: 'sqlite' | 'mysql' | 'mariadb', name: string): Promise<string> {
  if (kind === 'sqlite') {
    const [row] = (await queryRunner.query("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [name])) as Array<{
      sql: string;
    }>;
    return row?.sql ?? '';
  }
  const [row] = (await queryRunner.query(`SHOW CREATE TABLE \`${name.replaceAll('`', '``')}\``)) as Array<Record<string, string>>;
  return row?.['Create Table'] ?? '';
}

/**
 * Fills in the expressions of the tables' generated (computed) columns, which TypeORM reads only
 * from its own typeorm_metadata table (see `withoutTypeormMetadata`), from the database itself:
 * SQLite's CREATE TABLE as it keeps it, MySQL/MariaDB's SHOW CREATE TABLE, PostgreSQL's catalog;
 * on MySQL/MariaDB whether each is nullable too (TypeORM's MariaDB reader leaves every one NOT
 * NULL). A table one of whose expressions cannot be found is taken out of `tables` and named in
 * `unread`: its baseline could not create it.
 */
async function readGeneratedColumns(
  queryRunner: QueryRunner,
  kind: DatabaseTarget['kind'],
  tables: Table[],
  unread: string[],
): Promise<void> {
  const computed = tables.filter((table) => table.columns.some((column) => column.generatedType));
  if (computed.length === 0) return;
  const expressions = new Map<string, Map<string, string>>();
  if (kind === 'postgres') {
    const rows = (await queryRunner.query(POSTGRES_GENERATED)) as Array<{
      tableName: string;
      columnName: string;
      expression: string | null;
    }>;
    for (const { tableName, columnName, expression } of rows) {
      if (expression !== null)
        expressions.set(tableName, (expressions.get(tableName) ?? new Map<string, string>()).set(columnName, expression));
    }
  } else {
    if (kind !== 'sqlite') {
      const rows = (await queryRunner.query(MYSQL_GENERATED)) as Array<{ tableName: string; columnName: string; nullable: string }>;
      for (const { tableName, columnName, nullable } of rows) {
        const column = computed.find((t) => t.name === tableName)?.findColumnByName(columnName);
        if (column) column.isNullable = nullable === 'YES';
      }
    }
    for (const table of computed) {
      const statement = await createTableStatement(queryRunner, kind, table.name);
      expressions.set(table.name, generatedExpressions(statement, kind !== 'sqlite'));
    }
  }
  for (const table of computed) {
    const missing = table.columns.find((column) => column.generatedType && expressions.get(table.name)?.get(column.name) === undefined);
    if (missing) {
      unread.push(`table ${table.name}: the expression of its generated column ${missing.name} cannot be read`);
      tables.splice(tables.indexOf(table), 1);
      continue;
    }
    for (const column of table.columns) if (column.generatedType) column.asExpression = expressions.get(table.name)!.get(column.name)!;
  }
}

/** The database can be reached, but its schema cannot be read safely. */
export class UnreadableSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableSchemaError';
  }
}

/** A query for tables TypeORM cannot read or write back, a row per problem: the table, and the column, type or index it concerns. */
interface TableProblems {
  sql: string;
  why: (detail: string) => string;
}

/** TypeORM writes the names of tables, columns, indexes and constraints between quotes without doubling the quote in them. */
const UNESCAPED_IN_DDL = "which TypeORM would write unescaped into the baseline migration's SQL";

function mysqlProblems(): TableProblems[] {
  return [
    {
      sql: "SELECT TABLE_NAME AS name, COLUMN_NAME AS detail FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND INSTR(COLUMN_NAME, '`') > 0 ORDER BY TABLE_NAME, ORDINAL_POSITION",
      why: (column) => `its column ${column} has a name holding a backtick, ${UNESCAPED_IN_DDL}`,
    },
    {
      sql: `SELECT TABLE_NAME AS name, INDEX_NAME AS detail FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND INSTR(INDEX_NAME, '\`') > 0
            UNION SELECT TABLE_NAME, CONSTRAINT_NAME FROM information_schema.TABLE_CONSTRAINTS
              WHERE CONSTRAINT_SCHEMA = DATABASE() AND CONSTRAINT_TYPE IN ('UNIQUE', 'FOREIGN KEY') AND INSTR(CONSTRAINT_NAME, '\`') > 0
            ORDER BY 1, 2`,
      why: (index) => `its index or constraint ${index} has a name holding a backtick, ${UNESCAPED_IN_DDL}`,
    },
    {
      sql: "SELECT TABLE_NAME AS name, COLUMN_NAME AS detail FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND DATA_TYPE IN ('enum', 'set') AND INSTR(COLUMN_TYPE, CHAR(92)) > 0 ORDER BY TABLE_NAME, ORDINAL_POSITION",
      why: (column) => `its column ${column} has an enum or set value holding a backslash, which TypeORM would write back as an escape`,
    },
  ];
}

/**
 * Per database kind, what TypeORM cannot read or write back. PostgreSQL: its reader
 * writes type names between double quotes and the names of columns of user-defined and array
 * types between single quotes, unescaped (the first fails, the second runs what the name holds);
 * its DDL, the baseline migration's, writes names between double quotes. MySQL/MariaDB: its DDL
 * writes names between backticks; it writes a backslash in an enum or set value as it is, which
 * the server takes for an escape.
 */
const TABLE_PROBLEMS: Record<DatabaseTarget['kind'], TableProblems[]> = {
  sqlite: [],
  mysql: mysqlProblems(),
  mariadb: mysqlProblems(),
  postgres: [
    {
      // The type as SQL spells it: an array's element type with [], its schema when that is the name holding the quote.
      sql: `SELECT table_name AS name, column_name || ' has type '
              || CASE WHEN strpos(udt_schema, '''') + strpos(udt_schema, '"') > 0 THEN udt_schema || '.' ELSE '' END
              || CASE WHEN data_type = 'ARRAY' THEN substr(udt_name, 2) || '[]' ELSE udt_name END AS detail
            FROM information_schema.columns
            WHERE table_schema = current_schema() AND strpos(udt_name || udt_schema, '''') + strpos(udt_name || udt_schema, '"') > 0
            ORDER BY table_name, ordinal_position`,
      why: (typed) => `its column ${typed}, a name holding a quote, which TypeORM cannot read`,
    },
    {
      sql: `SELECT table_name AS name, column_name AS detail FROM information_schema.columns
            WHERE table_schema = current_schema() AND data_type IN ('USER-DEFINED', 'ARRAY') AND strpos(column_name, '''') > 0
            ORDER BY table_name, ordinal_position`,
      why: (column) =>
        `its column ${column}, of a user-defined or array type, has a name holding a single quote, which TypeORM cannot read`,
    },
    {
      sql: `SELECT table_name AS name, column_name AS detail FROM information_schema.columns
            WHERE table_schema = current_schema() AND strpos(column_name, '"') > 0 ORDER BY table_name, ordinal_position`,
      why: (column) => `its column ${column} has a name holding a double quote, ${UNESCAPED_IN_DDL}`,
    },
    {
      // Plain indexes, unique and foreign-key constraints: those a baseline migration names.
      sql: `SELECT t.relname AS name, i.relname AS detail FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
              JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = current_schema() AND NOT x.indisprimary AND strpos(i.relname, '"') > 0
            UNION SELECT t.relname, c.conname FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
              WHERE n.nspname = current_schema() AND c.contype IN ('u', 'f') AND strpos(c.conname, '"') > 0
            ORDER BY 1, 2`,
      why: (index) => `its index or constraint ${index} has a name holding a double quote, ${UNESCAPED_IN_DDL}`,
    },
  ],
};

/** The first problem of each table that has one (in the order of the queries, then of their rows). */
async function tableProblems(queryRunner: QueryRunner, kind: DatabaseTarget['kind']): Promise<Map<string, string>> {
  const problems = new Map<string, string>();
  for (const { sql, why } of TABLE_PROBLEMS[kind]) {
    for (const row of (await queryRunner.query(sql)) as Array<{ name: string; detail: string }>) {
      if (!problems.has(row.name)) problems.set(row.name, why(row.detail));
    }
  }
  return problems;
}

/** Why TypeORM cannot read a table (it would fail on it, or misread it) or write it back, if it cannot. */
async function unreadable(
  queryRunner: QueryRunner,
  kind: DatabaseTarget['kind'],
  name: string,
  problems: Map<string, string>,
): Promise<string | undefined> {
  // TypeORM takes a dot for the separator of a schema name; its readers write names into SQL unescaped.
  if (name.includes('.')) return 'its name holds a dot, which TypeORM reads as a schema separator';
  if (name.includes("'")) return 'its name holds a single quote, which TypeORM cannot read';
  if (kind === 'sqlite' && name.includes('"')) return 'its name holds a double quote, which TypeORM cannot read on SQLite';
  if (kind === 'postgres' && name.includes('"')) return `its name holds a double quote, ${UNESCAPED_IN_DDL}`;
  if (kind === 'mysql' || kind === 'mariadb') {
    if (name.includes('\\'))
      return 'its name holds a backslash, which TypeORM writes into its SQL where MySQL/MariaDB take it for an escape';
    if (name.includes('`')) return `its name holds a backtick, ${UNESCAPED_IN_DDL}`;
  }
  const problem = problems.get(name);
  if (problem) return problem;
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
 * migrations, nothing written), as plain data, sorted by table name; the expressions of
 * generated columns from the database's own catalog (see `readGeneratedColumns`). Tessera's own
 * tables (`tessera_*`) are left out.
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
      const viewNames: string[] = [];
      const unread: string[] = [];
      const problems = await tableProblems(queryRunner, target.kind);
      const ours = (name: string): boolean => !name.toLowerCase().startsWith('tessera_');
      const project = listed.map((row) => row.name).filter(ours);
      const views = ((await queryRunner.query(VIEW_NAMES[target.kind])) as Array<{ name: string }>).map((row) => row.name).filter(ours);
      // Tables and views share one namespace in the database, and so do resources.
      const twins = caseTwins([...project, ...views]);
      unread.push(...twins.lines);
      for (const [list, kind, into] of [
        [project, 'table', names],
        [views, 'view', viewNames],
      ] as const) {
        for (const name of list) {
          if (twins.names.has(name)) continue;
          const why = await unreadable(queryRunner, target.kind, name, problems);
          if (why) unread.push(`${kind} ${name}: ${why}`);
          else into.push(name);
        }
      }
      // TypeORM reads a view's columns as a table's on MySQL/MariaDB and PostgreSQL (information_schema), not on SQLite.
      // One view at a time: on PostgreSQL it asks for the type of user-defined columns in parallel, which pg frowns on.
      const viewsAsTables = target.kind !== 'sqlite';
      const tables = await withoutTypeormMetadata(queryRunner, async () => {
        const read = names.length === 0 ? [] : await queryRunner.getTables(names);
        if (viewsAsTables) for (const name of viewNames) read.push(...(await queryRunner.getTables([name])));
        return read;
      });
      await readGeneratedColumns(queryRunner, target.kind, tables, unread);
      if (target.kind === 'sqlite') await findSqliteAutoincrement(queryRunner, tables);
      else await sortColumnsAsDeclared(queryRunner, target.kind, tables);
      if (target.kind === 'mysql' || target.kind === 'mariadb') {
        const columnOf = (tableName: string, columnName: string) => tables.find((t) => t.name === tableName)?.findColumnByName(columnName);
        const booleans = (await queryRunner.query(MYSQL_BOOLEANS)) as Array<{ tableName: string; columnName: string }>;
        for (const { tableName, columnName } of booleans) {
          const column = columnOf(tableName, columnName);
          if (column) column.type = 'boolean';
        }
        const enums = (await queryRunner.query(MYSQL_ENUMS)) as Array<{ tableName: string; columnName: string; columnType: string }>;
        for (const { tableName, columnName, columnType } of enums) {
          const column = columnOf(tableName, columnName);
          if (column) column.enum = mysqlEnumValues(columnType);
        }
        const json = dataSource.options.type === 'mariadb' ? ((await queryRunner.query(MARIADB_JSON)) as typeof booleans) : [];
        for (const { tableName, columnName } of json) {
          const column = columnOf(tableName, columnName);
          if (column?.type === 'longtext') column.type = 'json';
        }
      }
      const isView = new Set(viewNames);
      const definitions = await viewDefinitions(queryRunner, target.kind, new Set([...project, ...views]));
      const viewColumns = viewsAsTables
        ? new Map(tables.filter((t) => isView.has(t.name)).map((t) => [t.name, plainTable(t).columns]))
        : await sqliteViewColumns(queryRunner, viewNames, unread);
      return {
        kind: target.kind,
        tables: tables
          .filter((t) => !isView.has(t.name) && ours(t.name))
          .map(plainTable)
          .sort((a, b) => compare(a.name, b.name)),
        views: [...viewColumns]
          .map(([name, columns]): SchemaView => ({
            name,
            columns,
            ...(definitions.get(name) ?? { unwritable: 'its definition cannot be read', reads: [], needs: [] }),
          }))
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
