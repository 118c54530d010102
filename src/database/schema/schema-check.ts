import type { DataSource, Table } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import type { EntityMetadata } from 'typeorm/metadata/EntityMetadata.js';
import { NameLookup } from '../name-lookup.js';
import { withoutTypeormMetadata } from './generated-columns.js';

/**
 * What a column's type means, whatever the dialect calls it: the entity's type (as the driver
 * normalises it) and the table's type (as the database reports it) agree when their families
 * do. A type no family knows is not compared: the check must not stop a boot on a false alarm.
 */
type TypeFamily = 'integer' | 'decimal' | 'float' | 'text' | 'boolean' | 'datetime' | 'date' | 'time' | 'binary' | 'json' | 'uuid' | 'enum';

const FAMILIES: Record<TypeFamily, string[]> = {
  integer: [
    'int',
    'integer',
    'int2',
    'int4',
    'int8',
    'smallint',
    'mediumint',
    'bigint',
    'tinyint',
    'unsigned big int',
    'serial',
    'bigserial',
    'smallserial',
  ],
  decimal: ['decimal', 'numeric', 'dec', 'fixed', 'money'],
  float: ['float', 'double', 'double precision', 'real', 'float4', 'float8'],
  text: [
    'varchar',
    'character varying',
    'varying character',
    'nvarchar',
    'national varchar',
    'native character',
    'char',
    'character',
    'nchar',
    'bpchar',
    'text',
    'tinytext',
    'mediumtext',
    'longtext',
    'clob',
    'citext',
    'simple-array',
    'simple-json',
    'simple-enum',
  ],
  boolean: ['boolean', 'bool'],
  datetime: ['datetime', 'datetime2', 'timestamp', 'timestamp without time zone', 'timestamp with time zone', 'timestamptz'],
  date: ['date'],
  time: ['time', 'time without time zone', 'time with time zone', 'timetz'],
  binary: ['blob', 'tinyblob', 'mediumblob', 'longblob', 'bytea', 'binary', 'varbinary'],
  json: ['json', 'jsonb'],
  uuid: ['uuid'],
  enum: ['enum'],
};

const FAMILY_OF = new Map<string, TypeFamily>(
  (Object.entries(FAMILIES) as Array<[TypeFamily, string[]]>).flatMap(([family, names]) => names.map((name) => [name, family] as const)),
);

/**
 * Families one dialect stores as another: MySQL/MariaDB keep a boolean in tinyint(1) and a
 * uuid in varchar; SQLite a boolean as an integer; a JSON column may be text where the
 * database has no JSON type (and MariaDB reports JSON as longtext); an enum may be a string.
 */
const STORED_AS: Partial<Record<TypeFamily, TypeFamily[]>> = {
  boolean: ['integer'],
  uuid: ['text'],
  json: ['text'],
  enum: ['text'],
};

export function typeFamilyOf(type: string): TypeFamily | undefined {
  const bare = type
    .toLowerCase()
    .replace(/\(.*\)/, '')
    .replace(/\bunsigned\b|\bzerofill\b/g, '')
    .trim();
  return FAMILY_OF.get(bare);
}

export function typesAgree(entityType: string, databaseType: string): boolean {
  const wanted = typeFamilyOf(entityType);
  const found = typeFamilyOf(databaseType);
  if (wanted === undefined || found === undefined || wanted === found) return true;
  return (STORED_AS[wanted] ?? []).includes(found) || (STORED_AS[found] ?? []).includes(wanted);
}

function describeType(type: string, length?: string | number | null): string {
  return length ? `${type}(${length})` : type;
}

/** An entity's name for messages: its class when it has one. */
function entityName(metadata: EntityMetadata): string {
  return typeof metadata.target === 'function' ? metadata.target.name : metadata.name;
}

function checkColumns(dataSource: DataSource, metadata: EntityMetadata, table: Table): string[] {
  const problems: string[] = [];
  const byName = new NameLookup<Table['columns'][number]>();
  for (const column of table.columns) byName.set(column.name, column);
  const stored = (column: ColumnMetadata) => !column.isVirtual && !column.isVirtualProperty;
  for (const column of metadata.columns.filter(stored)) {
    const where = `${metadata.tableName}.${column.databaseName}`;
    const found = byName.get(column.databaseName);
    if (!found) {
      problems.push(`column ${where} is missing (entity ${entityName(metadata)}, property ${column.propertyPath})`);
      continue;
    }
    const wanted = dataSource.driver.normalizeType(column);
    if (!typesAgree(wanted, found.type)) {
      problems.push(`column ${where} is ${describeType(found.type, found.length)} in the database, but the entity says ${wanted}`);
    }
  }
  return problems;
}

/**
 * Compares every entity the data source knows (Tessera's own and the project's) with the live
 * database: a missing table, a missing column, a column whose type disagrees. Returns every
 * problem, empty when they agree. A view entity's view is checked by its columns' names (see
 * `viewProblems`).
 */
export async function schemaProblems(dataSource: DataSource): Promise<string[]> {
  const metadatas = dataSource.entityMetadatas.filter((m) => m.tableType !== 'view' && m.tableType !== 'entity-child');
  const tableOf = await liveTables(dataSource, metadatas);
  const problems: string[] = [];
  for (const metadata of metadatas) {
    const table = tableOf(metadata);
    if (!table) problems.push(`table ${metadata.tableName} is missing (entity ${entityName(metadata)})`);
    else problems.push(...checkColumns(dataSource, metadata, table));
  }
  problems.push(...(await viewProblems(dataSource)));
  return problems;
}

/** The columns of a view (or table) of the database or schema in use, by name: none when there is no such view. */
const VIEW_COLUMNS: Record<'sqlite' | 'mysql' | 'postgres', string> = {
  sqlite: 'SELECT name FROM pragma_table_info(?)',
  mysql: 'SELECT COLUMN_NAME AS name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?',
  postgres: 'SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
};

/**
 * Every view entity against the database: its view missing, or a column of it. Types are not
 * compared: a view's column has the type of the expression that makes it, which each database
 * reports its own way (SQLite: none for an expression).
 */
async function viewProblems(dataSource: DataSource): Promise<string[]> {
  const views = dataSource.entityMetadatas.filter((m) => m.tableType === 'view');
  if (views.length === 0) return [];
  const type = dataSource.driver.options.type;
  const sql = VIEW_COLUMNS[type === 'better-sqlite3' ? 'sqlite' : type === 'postgres' ? 'postgres' : 'mysql'];
  const problems: string[] = [];
  const runner = dataSource.createQueryRunner();
  try {
    for (const metadata of views) {
      const rows = (await runner.query(sql, [metadata.tableName])) as Array<{ name: string }>;
      if (rows.length === 0) {
        problems.push(`view ${metadata.tableName} is missing (view entity ${entityName(metadata)})`);
        continue;
      }
      const found = new Set(rows.map((row) => row.name));
      for (const column of metadata.columns) {
        if (!found.has(column.databaseName)) {
          problems.push(
            `column ${metadata.tableName}.${column.databaseName} is missing (view entity ${entityName(metadata)}, property ${column.propertyPath})`,
          );
        }
      }
    }
  } finally {
    await runner.release();
  }
  return problems;
}

/** The live tables of these entities, as TypeORM reads them; undefined for an entity whose table the database lacks. */
export async function liveTables(
  dataSource: DataSource,
  metadatas: EntityMetadata[],
): Promise<(metadata: EntityMetadata) => Table | undefined> {
  const runner = dataSource.createQueryRunner();
  let tables: Table[];
  try {
    // A table with a generated (computed) column reads without TypeORM's typeorm_metadata table, which Tessera never creates.
    tables = await withoutTypeormMetadata(runner, () => runner.getTables(metadatas.map((m) => m.tablePath)));
  } finally {
    await runner.release();
  }
  const byName = new NameLookup<Table>();
  for (const table of tables) byName.set(bareName(table.name), table);
  return (metadata) => byName.get(bareName(metadata.tablePath));
}

/** A table's name without the schema or database TypeORM may put before it. */
function bareName(path: string): string {
  return path.split('.').pop() ?? path;
}

/** The boot's one message for a schema that does not match: every problem, then the fix. */
export function schemaMismatchMessage(safeUrl: string, problems: string[]): string {
  return [
    `The database at ${safeUrl} does not match the entities (checked after the migrations ran):`,
    ...problems.map((p) => `  - ${p}`),
    'Fix: if a migration is missing or was not run, add it to the project (npm run migration:generate -- src/project/migrations/<Name>) and run the migrations (npm run migration:run; every boot runs them too);',
    'or, when the database is right and the entities are not, regenerate the project from it: npm run generate -- --from <DATABASE_URL> --name <project> --force',
  ].join('\n');
}
