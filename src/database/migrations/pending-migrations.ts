import type { DataSource } from 'typeorm';

/**
 * The names of the migrations this build knows that the database has not recorded as applied,
 * read from the migrations table (never created here, unlike TypeORM's own check: a readiness
 * probe changes nothing). Every name in the table comes from the build, so nothing the table
 * holds is echoed back.
 */
export async function pendingMigrationNames(
  dataSource: DataSource,
  query: (sql: string) => Promise<Array<Record<string, unknown>>>,
): Promise<string[]> {
  const known = dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name);
  const table = dataSource.driver.escape(dataSource.options.migrationsTableName ?? 'migrations');
  const rows = await query(`SELECT name FROM ${table}`);
  const applied = new Set(rows.map((row) => String(row.name)));
  return known.filter((name) => !applied.has(name));
}
