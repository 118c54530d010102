import type { ProcedureDefinition } from '../extensions/procedures/procedure-definition.js';
import type { SqlResourceDefinition } from '../extensions/sql-resources/sql-resource-definition.js';

/**
 * The demo's SQL resources (README, "SQL resources"): SELECTs over the tables as the caller may read them.
 * A Sales rep sees his own orders only in `customer_orders`, as in `purchaseorder`.
 */
export const demoSqlResources: SqlResourceDefinition[] = [
  {
    name: 'customer_orders',
    description: "Each customer's number of orders and their total, for the orders the caller may read.",
    parameters: { min_total: { type: 'number', min: 0, description: 'Only customers whose orders total at least this.' } },
    sql: `SELECT c.name, c.balance, COUNT(o.order_number) AS orders, SUM(o.amount_total) AS total
            FROM {customer c} JOIN {purchaseorder o} ON o.customer_name = c.name
           GROUP BY c.name, c.balance
          HAVING SUM(o.amount_total) >= COALESCE(:min_total, 0)
           ORDER BY c.name`,
  },
];

/** The demo's stored routine (created by its migration on MySQL/MariaDB and PostgreSQL; SQLite has none). */
export const demoProcedures: ProcedureDefinition[] = [
  { name: 'order_totals', description: "One customer's orders with their totals.", databases: ['mysql', 'postgres'] },
];
