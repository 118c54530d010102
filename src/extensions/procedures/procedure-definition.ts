import type { SqlParameterDefinition } from '../sql-resources/sql-resource-definition.js';

/**
 * A stored procedure or function of the database (MySQL/MariaDB and PostgreSQL; SQLite has none) that the API
 * serves at `<base>/<name>`: `GET` with `?arg.<parameter>=<value>`, or `POST` with `{"<parameter>": value}`.
 * Checked at boot against the database's catalog (it must exist, once, with IN parameters only), which types
 * its arguments; each argument is checked and bound, never spliced. Answered as the list of the result sets it
 * returns, each a list of objects.
 *
 * A routine runs with the database user's rights, not the caller's roles: only roles that name it may call it
 * (`defaultAccess` does not reach it); GET needs READ in the grant, POST INSERT.
 *
 * ```ts
 * { name: 'order_totals', description: 'Orders and their total for one customer', databases: ['mysql', 'postgres'] }
 * ```
 */
export interface ProcedureDefinition {
  /** The routine's name in the database (unquoted, as its catalog spells it), and in the URL and roles. */
  name: string;
  description?: string;
  /**
   * Limits on the catalog's parameters, by name (`required`, `min`, `max`, `maxLength`, `description`); the
   * type, if given, must agree with the catalog's.
   */
  parameters?: Record<string, Partial<SqlParameterDefinition>>;
  /**
   * The databases that have it (`mysql` covers MariaDB): on any other the procedure is not served, and the boot
   * does not look for it. Without it, every database must have it (SQLite never does).
   */
  databases?: Array<'mysql' | 'postgres'>;
}
