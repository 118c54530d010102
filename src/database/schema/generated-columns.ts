import type { QueryRunner, Table, TableColumn } from 'typeorm';
import type { Query } from 'typeorm/driver/Query.js';

/** The lookup `withoutTypeormMetadata` answers itself: a query with no row, on SQLite, MySQL/MariaDB and PostgreSQL alike. */
const NO_ROW = 'SELECT NULL AS value FROM (SELECT 1 AS one) AS t WHERE 1 = 0 /* no typeorm_metadata */';

/** The two methods of TypeORM's query runners `withoutTypeormMetadata` shadows (the first protected). */
interface Shadowed {
  selectTypeormMetadataSql?: () => Pick<Query, 'query' | 'parameters'>;
  query?: (sql: string, ...rest: unknown[]) => Promise<unknown>;
}

/**
 * Runs `work` (a read of tables, or DDL that reads them first) on a runner whose TypeORM loader
 * does not need TypeORM's `typeorm_metadata` table. TypeORM looks up the expression of every
 * generated (computed) column there, where it notes the ones it creates itself; in a database it
 * did not make (or made without that table) the lookup fails, and with it the whole read. Where
 * the table is missing, the lookup finds nothing here, without a round trip (TypeORM's PostgreSQL
 * reader would send them in parallel on one connection, which pg warns about): the column reads
 * with an empty `asExpression` (the schema reader takes the expression from the database's own
 * catalog). Where the table exists, TypeORM reads it as usual. Tessera never creates it: its
 * entities declare no `generatedType`, which would have TypeORM's migrations create it in the
 * database at every boot.
 */
export async function withoutTypeormMetadata<T>(runner: QueryRunner, work: () => Promise<T>): Promise<T> {
  if (await runner.hasTable(runner.dataSource.metadataTableName)) return work();
  // Shadowed on this one runner, for `work` only.
  const shadowed = runner as unknown as Shadowed;
  const query = runner.query.bind(runner) as (sql: string, ...rest: unknown[]) => Promise<unknown>;
  shadowed.selectTypeormMetadataSql = () => ({ query: NO_ROW, parameters: [] });
  shadowed.query = (sql, ...rest) => (sql === NO_ROW ? Promise.resolve([]) : query(sql, ...rest));
  try {
    return await work();
  } finally {
    delete shadowed.selectTypeormMetadataSql;
    delete shadowed.query;
  }
}

/** MySQL/MariaDB: a generated column as their CREATE TABLE takes it (see `createTableWithGeneratedColumns`). */
function mysqlGeneratedColumnSql(runner: QueryRunner, column: TableColumn): string {
  let sql = `\`${column.name}\` ${runner.dataSource.driver.createFullType(column)}`;
  if (column.unsigned) sql += ' UNSIGNED';
  if (column.enum) sql += ` (${column.enum.map((value) => `'${value.replaceAll("'", "''")}'`).join(', ')})`;
  sql += ` AS (${column.asExpression!}) ${column.generatedType ?? 'VIRTUAL'}`;
  // MariaDB refuses NULL and NOT NULL on a generated column, and reports every one nullable.
  if (!column.isNullable) sql += ' NOT NULL';
  return sql;
}

/**
 * Creates a table that has generated (computed) columns (`generatedType` and `asExpression`), for
 * a generated project's baseline migration, as `queryRunner.createTable` would, less TypeORM's
 * note of each expression in its `typeorm_metadata` table (its only INSERTs among the statements:
 * Tessera does not create that table; the database keeps the expression itself). On
 * MySQL/MariaDB each generated column is written as the server takes it: TypeORM writes
 * `UNSIGNED` and an enum's values after the expression, and `NULL` after it, which MariaDB
 * refuses when it is served through a `mysql://` URL.
 */
export async function createTableWithGeneratedColumns(runner: QueryRunner, table: Table): Promise<void> {
  const type = runner.dataSource.driver.options.type;
  // A protected method of TypeORM's MySQL query runner, shadowed on this one runner for this table only.
  const columns = runner as unknown as { buildCreateColumnSql: (column: TableColumn, ...rest: unknown[]) => string };
  const typeorms = columns.buildCreateColumnSql;
  if (type === 'mysql' || type === 'mariadb') {
    columns.buildCreateColumnSql = (column, ...rest) =>
      column.asExpression ? mysqlGeneratedColumnSql(runner, column) : typeorms.call(runner, column, ...rest);
  }
  let statements: Query[];
  runner.enableSqlMemory();
  try {
    await runner.createTable(table);
    statements = runner.getMemorySql().upQueries;
  } finally {
    runner.disableSqlMemory();
    delete (columns as { buildCreateColumnSql?: unknown }).buildCreateColumnSql;
  }
  for (const { query, parameters } of statements) {
    if (!/^\s*INSERT\b/i.test(query)) await runner.query(query, parameters);
  }
}
