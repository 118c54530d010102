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
 * For an order, PostgreSQL asks more: it reads an order along an index only when the index keeps
 * nulls at the same end as the order. Tessera sorts nulls as the smallest value (`NULLS FIRST`
 * ascending, `NULLS LAST` descending), which PostgreSQL's default index (`ASC NULLS LAST`) does not;
 * on a NOT NULL column it leaves the clause out (see `compileOrder`), which the default index then
 * serves and an index built `NULLS FIRST` does not. So a column that may be NULL serves an order
 * when one of its indexes is built `NULLS FIRST` (or `DESC NULLS LAST`), and a NOT NULL column when
 * one is built in the default nulls order.
 */
export async function indexLeads(dataSource: DataSource, entities: ReadonlyArray<Function | string>): Promise<Map<string, IndexLead>> {
  const metadatas = entities.map((entity) => dataSource.getMetadata(entity));
  const tableOf = await liveTables(dataSource, metadatas);
  const orderLeads = dataSource.options.type === 'postgres' ? await postgresOrderLeads(dataSource, metadatas) : undefined;
  const out = new Map<string, IndexLead>();
  for (const metadata of metadatas) {
    const table = tableOf(metadata);
    if (!table) continue;
    const leads = new NameLookup<true>();
    const first = table.primaryColumns[0];
    if (first) leads.set(first.name, true);
    for (const column of table.columns) if (column.isUnique) leads.set(column.name, true);
    for (const index of [...table.indices, ...table.uniques]) if (index.columnNames[0]) leads.set(index.columnNames[0], true);
    // As the entity declares it, which is what the order Tessera writes follows (see `cannotBeNull`).
    const nullable = new NameLookup<true>();
    for (const column of metadata.columns) if (column.isNullable || metadata.tableType === 'view') nullable.set(column.databaseName, true);
    const ordersAlong = orderLeads?.get(metadata.tableName);
    out.set(metadata.tableName, (column, ordered = false) => {
      if (leads.get(column) !== true) return false;
      if (!ordered || !orderLeads) return true;
      return ordersAlong?.get(column)?.has(nullable.get(column) === true ? 'nulls first' : 'default') === true;
    });
  }
  return out;
}

/** How an index orders nulls, as Tessera's orders see it (ascending). */
type NullsOrder = 'nulls first' | 'default';

/**
 * On PostgreSQL: by table, the columns that lead an index, each with the nulls orders of those
 * indexes in the current schema (`indoption` bit 1 is DESC, bit 2 NULLS FIRST: exactly one of them
 * set keeps nulls first ascending).
 */
async function postgresOrderLeads(dataSource: DataSource, metadatas: EntityMetadata[]): Promise<Map<string, NameLookup<Set<NullsOrder>>>> {
  const rows = await dataSource.query<Array<{ table: string; column: string; nulls_first: boolean }>>(
    `SELECT t.relname AS "table", a.attname AS "column",
            ((x.indoption[0] & 1) = 1) <> ((x.indoption[0] & 2) = 2) AS "nulls_first"
       FROM pg_index x
       JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0]
      WHERE t.relnamespace = current_schema()::regnamespace
        AND t.relname = ANY($1)`,
    [metadatas.map((m) => m.tableName)],
  );
  const out = new Map<string, NameLookup<Set<NullsOrder>>>();
  for (const { table, column, nulls_first } of rows) {
    if (!out.has(table)) out.set(table, new NameLookup<Set<NullsOrder>>());
    const lookup = out.get(table)!;
    const orders = lookup.get(column) ?? new Set<NullsOrder>();
    orders.add(nulls_first ? 'nulls first' : 'default');
    lookup.set(column, orders);
  }
  return out;
}
