import type { DataSource } from 'typeorm';
import { NameLookup } from '../name-lookup.js';
import { liveTables } from './schema-check.js';

/**
 * The columns of each entity's live table that an index starts with: the primary key's first
 * column, a unique column, the first column of a unique constraint or of an index (on
 * MySQL/MariaDB also the index InnoDB makes for a foreign key). A filter or order on one of
 * them can use it; on any other column it reads the whole table. By entity metadata's table
 * name, each a test of a column name (matched like the schema check's, exact name first, else
 * ignoring case); a table the database lacks has no entry.
 */
export async function indexLeads(
  dataSource: DataSource,
  entities: ReadonlyArray<Function | string>,
): Promise<Map<string, (column: string) => boolean>> {
  const metadatas = entities.map((entity) => dataSource.getMetadata(entity));
  const tableOf = await liveTables(dataSource, metadatas);
  const out = new Map<string, (column: string) => boolean>();
  for (const metadata of metadatas) {
    const table = tableOf(metadata);
    if (!table) continue;
    const leads = new NameLookup<true>();
    const first = table.primaryColumns[0];
    if (first) leads.set(first.name, true);
    for (const column of table.columns) if (column.isUnique) leads.set(column.name, true);
    for (const index of [...table.indices, ...table.uniques]) if (index.columnNames[0]) leads.set(index.columnNames[0], true);
    out.set(metadata.tableName, (column) => leads.get(column) === true);
  }
  return out;
}
