import type { DataSource, EntityMetadata } from 'typeorm';
import { NameLookup } from '../name-lookup.js';
import { liveTables } from './schema-check.js';

/** Whether an index starts with a column: for a filter on it, or (`ordered`) for an order by it. */
export type IndexLead = (column: string, ordered?: boolean) => boolean;

/**
 * The columns of each entity's live table that an index starts with: the primary key's first
 * column, a unique column, the first column of a unique constraint or of an index (on
 * MySQL/MariaDB also the index InnoDB makes for a foreign key). A filter or order on one of
 * them can use it; on any other column it reads the whole table. By entity metadata's table
 * name, each a test of a column name (matched like the schema check's, exact name first, else
 * ignoring case); a table the database lacks has no entry.
 *
 * For an order, PostgreSQL asks more of a column that may be NULL: Tessera sorts nulls as the
 * smallest value (`NULLS FIRST` ascending, `NULLS LAST` descending), and PostgreSQL reads an order
 * along an index only when the index keeps its nulls at that end, which its default (`ASC NULLS
 * LAST`) does not. Such a column serves an order when one of its indexes is built `NULLS FIRST`
 * (or `DESC NULLS LAST`).
 */
export async function indexLeads(dataSource: DataSource, entities: ReadonlyArray<Function | string>): Promise<Map<string, IndexLead>> {
  const metadatas = entities.map((entity) => dataSource.getMetadata(entity));
  const tableOf = await liveTables(dataSource, metadatas);
  const nullsFirstLeads = dataSource.options.type === 'postgres' ? await postgresNullsFirstLeads(dataSource, metadatas) : undefined;
  const out = new Map<string, IndexLead>();
  for (const metadata of metadatas) {
    const table = tableOf(metadata);
    if (!table) continue;
    const leads = new NameLookup<true>();
    const first = table.primaryColumns[0];
    if (first) leads.set(first.name, true);
    for (const column of table.columns) if (column.isUnique) leads.set(column.name, true);
    for (const index of [...table.indices, ...table.uniques]) if (index.columnNames[0]) leads.set(index.columnNames[0], true);
    const nullable = new NameLookup<true>();
    for (const column of table.columns) if (column.isNullable) nullable.set(column.name, true);
    const ordersAlong = nullsFirstLeads?.get(metadata.tableName);
    out.set(metadata.tableName, (column, ordered = false) => {
      if (leads.get(column) !== true) return false;
      if (!ordered || !nullsFirstLeads || nullable.get(column) !== true) return true;
      return ordersAlong?.get(column) === true;
    });
  }
  return out;
}

/**
 * On PostgreSQL: by table, the columns that lead an index whose order keeps nulls first ascending
 * (`indoption` bit 1 is DESC, bit 2 NULLS FIRST: exactly one of them set), in the current schema.
 */
async function postgresNullsFirstLeads(dataSource: DataSource, metadatas: EntityMetadata[]): Promise<Map<string, NameLookup<true>>> {
  const rows = await dataSource.query<Array<{ table: string; column: string }>>(
    `SELECT t.relname AS "table", a.attname AS "column"
       FROM pg_index x
       JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0]
      WHERE t.relnamespace = current_schema()::regnamespace
        AND t.relname = ANY($1)
        AND ((x.indoption[0] & 1) = 1) <> ((x.indoption[0] & 2) = 2)`,
    [metadatas.map((m) => m.tableName)],
  );
  const out = new Map<string, NameLookup<true>>();
  for (const { table, column } of rows) {
    if (!out.has(table)) out.set(table, new NameLookup<true>());
    out.get(table)!.set(column, true);
  }
  return out;
}
