import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * On PostgreSQL, rebuilds `ix_customer_balance` with its nulls first. Tessera orders nulls as the
 * smallest value on every database (`balance DESC NULLS LAST`), and PostgreSQL uses an index for an
 * order only when the index keeps nulls at the same end: the plain index (nulls last) found the rows of
 * `balance > x` but every read then sorted all of them, which grew with the table (issue 31, item 4).
 * SQLite and MariaDB/MySQL place nulls first already, and are left as they are.
 */
export class CustomerBalanceNullsFirst1763900007000 implements MigrationInterface {
  name = 'CustomerBalanceNullsFirst1763900007000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await rebuild(queryRunner, ' NULLS FIRST');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await rebuild(queryRunner, '');
  }
}

async function rebuild(queryRunner: QueryRunner, nulls: string): Promise<void> {
  if (queryRunner.dataSource.options.type !== 'postgres') return;
  await queryRunner.query('DROP INDEX IF EXISTS "ix_customer_balance"');
  await queryRunner.query(`CREATE INDEX "ix_customer_balance" ON "customer" ("balance"${nulls})`);
}
