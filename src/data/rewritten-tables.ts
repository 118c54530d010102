import type { Database } from '../database/database.js';
import type { Dialect } from '../database/dialect.js';

/**
 * Tables with a trigger of their own (not PostgreSQL's internal foreign-key triggers) or a
 * generated column, in the database or schema the service uses. A trigger may store other values
 * than a write sent (Sakila's `last_update`), and a generated column changes with the columns it
 * is computed from, whatever the entity declares: writes to these tables read their rows back
 * before answering.
 */
const REWRITTEN_TABLES: Record<Dialect, string> = {
  sqlite: `SELECT DISTINCT tbl_name AS name FROM sqlite_master WHERE type = 'trigger'
           UNION SELECT m.name FROM sqlite_master m JOIN pragma_table_xinfo(m.name) c WHERE m.type = 'table' AND c.hidden IN (2, 3)`,
  mysql: `SELECT DISTINCT EVENT_OBJECT_TABLE AS name FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_SCHEMA = DATABASE()
          UNION SELECT DISTINCT TABLE_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND EXTRA LIKE '%GENERATED%'`,
  postgres: `SELECT DISTINCT c.relname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE NOT t.tgisinternal AND n.nspname = current_schema()
             UNION SELECT DISTINCT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_generated = 'ALWAYS'`,
};

/** The names of the tables the database changes rows of itself, as the database spells them (one catalog query, at boot). */
export async function rewrittenTables(database: Pick<Database, 'read' | 'dialect'>): Promise<Set<string>> {
  const rows = await database.read((session) => session.query(REWRITTEN_TABLES[database.dialect]));
  return new Set(rows.map((row) => String(row.name)));
}
