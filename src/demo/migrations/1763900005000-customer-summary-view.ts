import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The demo's view `customer_summary` (README, "Views"): each customer with their balance, credit
 * limit, how many orders they placed, how many are unpaid and what those still owe. The database
 * computes the last three from the orders when the view is read; `balance` is what the rules keep
 * (the same Σ of unpaid orders' `amount_owed`), so the two agree. Plain SQL every supported
 * database reads alike: lower-case names unquoted, the boolean `paid` as a CASE condition
 * (SQLite and MariaDB keep it as 0/1), COUNT over a CASE for the unpaid orders, and every
 * customer column in GROUP BY. The sum is CAST to the money columns' DECIMAL(19,4): on SQLite an
 * expression has no type affinity, so a filter's decimal value (bound as text) would never compare
 * equal or greater to it; CAST gives it a numeric one, and the same type on the other two.
 * Tessera serves it read-only (GET only).
 */
export class CustomerSummaryView1763900005000 implements MigrationInterface {
  name = 'CustomerSummaryView1763900005000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE VIEW customer_summary AS
         SELECT c.name AS name, c.balance AS balance, c.credit_limit AS credit_limit,
                COUNT(po.order_number) AS order_count,
                COUNT(CASE WHEN po.paid THEN NULL ELSE po.order_number END) AS unpaid_orders,
                CAST(COALESCE(SUM(CASE WHEN po.paid THEN 0 ELSE po.amount_owed END), 0) AS DECIMAL(19,4)) AS unpaid_total
           FROM customer c LEFT JOIN purchaseorder po ON po.customer_name = c.name
          GROUP BY c.name, c.balance, c.credit_limit`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP VIEW customer_summary');
  }
}
