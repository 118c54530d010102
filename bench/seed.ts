import { tablesOf, type DataSet } from './dataset.js';
import type { SqlClient } from './sql-client.js';

/** Project tables the benchmark replaces, children first. Employees (and Tessera's own tables: users, tokens) stay as Tessera seeded them. */
const REPLACED = ['purchaseorder_audit', 'lineitem', 'purchaseorder', 'customer', 'product'];
const GENERATED_KEYS: Array<[string, string]> = [
  ['product', 'product_number'],
  ['purchaseorder', 'order_number'],
  ['lineitem', 'lineitem_id'],
];

/**
 * Replaces the demo rows with the benchmark data set, straight through the driver in big
 * multi-row INSERTs (one transaction per table), then gathers each table's statistics. Returns the
 * row count per table.
 */
export async function seedDataSet(client: SqlClient, data: DataSet): Promise<Record<string, number>> {
  for (const table of REPLACED) await client.query(`DELETE FROM ${table}`);
  const counts: Record<string, number> = {};
  for (const { table, columns, rows } of tablesOf(data)) counts[table] = await client.insertRows(table, columns, rows);
  if (client.kind === 'postgres') {
    // Explicit keys do not move PostgreSQL's sequences; Tessera's inserts would collide with key 1.
    for (const [table, column] of GENERATED_KEYS) {
      await client.query(`SELECT setval(pg_get_serial_sequence('${table}', '${column}'), (SELECT MAX(${column}) FROM ${table}))`);
    }
  }
  // Statistics, as a database in service has them (PostgreSQL's autovacuum and InnoDB gather them
  // on their own, a while after a bulk load): without them the planner guesses, and a guess over
  // 1,000,000 fresh rows measured the guess, not Tessera (W2 read the whole table on PostgreSQL).
  // PostgreSQL also vacuums now, not in the middle of a measured round (autovacuum would, after a
  // million inserts), so the rows' visibility is settled as in a database that has been in use.
  const gather = { sqlite: 'ANALYZE', mysql: 'ANALYZE TABLE', postgres: 'VACUUM ANALYZE' }[client.kind];
  for (const { table } of tablesOf(data)) await client.query(`${gather} ${table}`);
  return counts;
}

/** Money compares with a tolerance: SQLite stores decimals as doubles. */
const DIFFERS = (a: string, b: string): string => `ABS((${a}) - (${b})) > 0.00001`;

/** The demo rules checked in SQL on what was written; each entry is a rule and how many rows break it. */
export async function ruleViolationsInDatabase(client: SqlClient): Promise<Array<{ rule: string; rows: number }>> {
  const checks: Array<[string, string]> = [
    [
      'lineitem.product_price = product.price, amount = qty × price',
      `SELECT COUNT(*) AS n FROM lineitem l JOIN product p ON p.product_number = l.product_number
       WHERE ${DIFFERS('l.product_price', 'p.price')} OR ${DIFFERS('l.amount', 'l.qty_ordered * l.product_price')}`,
    ],
    [
      'purchaseorder.amount_total = Σ lineitem.amount',
      `SELECT COUNT(*) AS n FROM purchaseorder o LEFT JOIN
         (SELECT order_number, SUM(amount) AS s FROM lineitem GROUP BY order_number) t ON t.order_number = o.order_number
       WHERE ${DIFFERS('o.amount_total', 'COALESCE(t.s, 0)')}`,
    ],
    [
      'customer.balance = Σ unpaid amount_total',
      `SELECT COUNT(*) AS n FROM customer c LEFT JOIN
         (SELECT customer_name, SUM(amount_total) AS s FROM purchaseorder WHERE paid = false GROUP BY customer_name) t ON t.customer_name = c.name
       WHERE ${DIFFERS('c.balance', 'COALESCE(t.s, 0)')}`,
    ],
    ['customer.balance <= credit_limit', 'SELECT COUNT(*) AS n FROM customer WHERE balance > credit_limit'],
  ];
  const out: Array<{ rule: string; rows: number }> = [];
  for (const [rule, sql] of checks) {
    const [row] = await client.query<{ n: unknown }>(sql);
    out.push({ rule, rows: Number(row?.n ?? 0) });
  }
  return out;
}
