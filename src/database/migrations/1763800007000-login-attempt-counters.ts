import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Issue 13 item 7: the login throttle reserves an attempt before the password is checked, with
 * one conditional UPDATE on a counter row per account and per address (see LoginThrottle):
 * failed logins in the window, and logins whose password is being checked now.
 * A row per failed login could not be counted and added to atomically under READ COMMITTED,
 * so it is replaced. Failures counted by the old table are not carried over: at worst an
 * account under attack gets one fresh window at the upgrade.
 */
export class LoginAttemptCounters1763800007000 implements MigrationInterface {
  name = 'LoginAttemptCounters1763800007000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'tessera_login_attempts',
        columns: [
          { name: 'scope', type: 'varchar', length: '10', isPrimary: true },
          { name: 'subject', type: 'varchar', length: '200', isPrimary: true },
          { name: 'window_start', type: 'bigint' },
          { name: 'failures', type: 'integer' },
          { name: 'pending', type: 'integer' },
        ],
        indices: [{ name: 'ix_tessera_login_attempts_window', columnNames: ['window_start'] }],
      }),
    );
    await queryRunner.dropTable('tessera_login_failures');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'tessera_login_failures',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'scope', type: 'varchar', length: '10' },
          { name: 'subject', type: 'varchar', length: '200' },
          { name: 'failed_at', type: 'bigint' },
        ],
      }),
    );
    await queryRunner.createIndex(
      'tessera_login_failures',
      new TableIndex({ name: 'ix_tessera_login_failures_subject', columnNames: ['scope', 'subject', 'failed_at'] }),
    );
    await queryRunner.createIndex(
      'tessera_login_failures',
      new TableIndex({ name: 'ix_tessera_login_failures_time', columnNames: ['failed_at'] }),
    );
    await queryRunner.dropTable('tessera_login_attempts');
  }
}
