import type { Database } from '../database/database.js';
import type { Dialect } from '../database/dialect.js';

/**
 * Tables with a trigger of their own (not PostgreSQL's internal foreign-key triggers), in the
 * database or schema the service uses. A trigger may store other values than a write sent
 * (Sakila's `last_update`), so writes to these tables read their rows back before answering.
 */
const TRIGGERED_TABLES: Record<Dialect, string> = {
  sqlite: "SELECT DISTINCT tbl_name AS name FROM sqlite_master WHERE type = 'trigger'",
  mysql: 'SELECT DISTINCT EVENT_OBJECT_TABLE AS name FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_SCHEMA = DATABASE()',
  postgres: `SELECT DISTINCT c.relname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE NOT t.tgisinternal AND n.nspname = current_schema()`,
};

/** The names of the tables the database changes rows of itself, as the database spells them (one catalog query, at boot). */
export async function rewrittenTables(database: Pick<Database, 'read' | 'dialect'>): Promise<Set<string>> {
  const rows = await database.read((session) => session.query(TRIGGERED_TABLES[database.dialect]));
  return new Set(rows.map((row) => String(row.name)));
}
