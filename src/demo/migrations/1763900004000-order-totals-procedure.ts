import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The demo's stored routine `order_totals(customer_name)`: one customer's orders with their totals, one result
 * set (README, "Stored procedures"). A procedure on MySQL/MariaDB, a set-returning function on PostgreSQL;
 * SQLite has no stored routines, so there it creates nothing (the demo serves it on the other two only).
 */
export class OrderTotalsProcedure1763900004000 implements MigrationInterface {
  name = 'OrderTotalsProcedure1763900004000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const type = queryRunner.dataSource.options.type;
    if (type === 'mysql' || type === 'mariadb') {
      await queryRunner.query(
        `CREATE PROCEDURE order_totals(IN customer_name VARCHAR(30)) READS SQL DATA
           SELECT po.order_number, po.amount_total, po.paid FROM purchaseorder po
            WHERE po.customer_name = customer_name ORDER BY po.order_number`,
      );
    } else if (type === 'postgres') {
      await queryRunner.query(
        `CREATE FUNCTION order_totals(customer_name varchar) RETURNS TABLE(order_number integer, amount_total numeric, paid boolean)
           LANGUAGE sql STABLE AS $$
             SELECT po.order_number, po.amount_total, po.paid FROM purchaseorder po
              WHERE po.customer_name = order_totals.customer_name ORDER BY po.order_number
           $$`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const type = queryRunner.dataSource.options.type;
    if (type === 'mysql' || type === 'mariadb') await queryRunner.query('DROP PROCEDURE IF EXISTS order_totals');
    else if (type === 'postgres') await queryRunner.query('DROP FUNCTION IF EXISTS order_totals(varchar)');
  }
}
