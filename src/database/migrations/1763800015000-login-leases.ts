import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Issue 32 item 2: a login slot is a lease, a row of its own with an expiry, so a slot whose
 * process was killed (or whose release never reached the database) expires instead of staying
 * counted as in progress until its window closes. The counters' `pending` now counts these
 * rows. The counts already there have no row behind them and cannot be told apart from counts
 * left by a killed process, so they start again from 0: at worst the logins in progress during
 * the upgrade are not counted against the limit.
 */
export class LoginLeases1763800015000 implements MigrationInterface {
  name = 'LoginLeases1763800015000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'tessera_login_leases',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'account', type: 'varchar', length: '200' },
          { name: 'address', type: 'varchar', length: '200' },
          { name: 'expires_at', type: 'bigint' },
        ],
        indices: [{ name: 'ix_tessera_login_leases_expiry', columnNames: ['expires_at'] }],
      }),
    );
    await queryRunner.query('UPDATE tessera_login_attempts SET pending = 0');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('tessera_login_leases');
  }
}
