/**
 * A value a SQL resource or a stored procedure takes from the request (`?name=value`), bound, never spliced
 * into SQL. Checked when the request comes: a value of the wrong type or out of its limits is 400 / 4000.
 */
export interface SqlParameterDefinition {
  /** `number` (any finite number), `integer`, `string`, `boolean` (`true`/`false`) or `date` (`YYYY-MM-DD`). */
  type: 'number' | 'integer' | 'string' | 'boolean' | 'date';
  /** A request without it is refused (400 / 4000); otherwise it is bound as NULL. Default false. */
  required?: boolean;
  description?: string;
  /** Numbers: the least and greatest value taken. */
  min?: number;
  max?: number;
  /** Strings: the most characters taken (default and at most 1000). */
  maxLength?: number;
}

/**
 * A Free SQL resource: one SELECT the project writes, served read-only and paged at `<base>/<name>`, granted
 * by roles by name like a table (`resources: { <name>: { access: ['READ'] } }`).
 *
 * It names the project's tables through placeholders, `{customer}` or `{customer c}` (with an alias), which
 * Tessera replaces with the rows and columns of that table the caller may read (its roles' READ row filters
 * and readable columns): the SQL sees nothing the caller could not GET. Values come in as parameters, `:name`
 * for a declared parameter of the request and `:@name` for a global of the caller's roles (`:@employee_id`),
 * always bound. It takes no LIMIT, OFFSET or FETCH of its own: Tessera appends them (`pagesize`, `offset`).
 *
 * ```ts
 * { name: 'customer_orders', description: 'Order totals per customer',
 *   parameters: { min_total: { type: 'number' } },
 *   sql: `SELECT c.name, COUNT(o.order_number) AS orders, SUM(o.amount_total) AS total
 *           FROM {customer c} JOIN {purchaseorder o} ON o.customer_name = c.name
 *          GROUP BY c.name HAVING SUM(o.amount_total) >= COALESCE(:min_total, 0) ORDER BY c.name` }
 * ```
 */
export interface SqlResourceDefinition {
  /** Its name in the URL and in roles; it may not be a table's or another resource's name. */
  name: string;
  description?: string;
  /** One SELECT (or WITH … SELECT) statement, without `;`, LIMIT or OFFSET. */
  sql: string;
  /** The request's values the SQL names as `:name`, each with its type. */
  parameters?: Record<string, SqlParameterDefinition>;
  /**
   * True: the placeholders are the raw tables, every row and column, whoever calls. Safe only when the SQL
   * itself keeps each caller to what it may see (it filters by `:@employee_id` and selects no column a caller
   * may not read), or when the data is public to everyone the resource is granted to. Default false.
   */
  system?: boolean;
}
