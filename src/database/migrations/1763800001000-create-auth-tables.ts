import { Table, type MigrationInterface, type QueryRunner, type TableColumnOptions } from 'typeorm';

/** Column shapes written once so every table uses the same portable types. */
const id: TableColumnOptions = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
const epochMs = (name: string, isNullable = false): TableColumnOptions => ({ name, type: 'bigint', isNullable });
const text = (name: string, isNullable = false): TableColumnOptions => ({ name, type: 'text', isNullable });
const varchar = (name: string, length: number, isNullable = false): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: String(length),
  isNullable,
});
const flag = (name: string): TableColumnOptions => ({ name, type: 'boolean' });

/**
 * Tables of issue 3: API users, API tokens, failed logins (the throttle), admin accounts,
 * admin tokens and the admin audit trail. Times are epoch milliseconds (`bigint`), JSON is
 * `text`: both portable across SQLite, MySQL/MariaDB and PostgreSQL.
 */
export class CreateAuthTables1763800001000 implements MigrationInterface {
  name = 'CreateAuthTables1763800001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'tessera_users',
        columns: [
          { ...varchar('login', 100), isPrimary: true },
          varchar('password_hash', 100),
          text('roles'),
          text('globals'),
          varchar('email', 254, true),
          { name: 'key_lifetime_seconds', type: 'integer', isNullable: true },
          flag('active'),
          epochMs('last_login_at', true),
          varchar('last_login_ip', 64, true),
          epochMs('created_at'),
          epochMs('updated_at'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'tessera_api_tokens',
        columns: [
          id,
          varchar('key_hash', 64),
          varchar('label', 200),
          varchar('user_identifier', 100, true),
          text('roles'),
          text('globals'),
          text('user_info', true),
          epochMs('expiration', true),
          flag('disabled'),
          varchar('origin', 10),
          epochMs('created_at'),
          epochMs('last_used_at', true),
        ],
        indices: [
          { name: 'uq_tessera_api_tokens_key_hash', columnNames: ['key_hash'], isUnique: true },
          { name: 'ix_tessera_api_tokens_user', columnNames: ['user_identifier'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'tessera_login_failures',
        columns: [id, varchar('scope', 10), varchar('subject', 200), epochMs('failed_at')],
        indices: [
          { name: 'ix_tessera_login_failures_subject', columnNames: ['scope', 'subject', 'failed_at'] },
          { name: 'ix_tessera_login_failures_time', columnNames: ['failed_at'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'tessera_admin_accounts',
        columns: [{ ...varchar('username', 100), isPrimary: true }, varchar('password_hash', 100), epochMs('created_at')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'tessera_admin_tokens',
        columns: [id, varchar('key_hash', 64), varchar('username', 100), epochMs('expiration'), epochMs('created_at')],
        indices: [{ name: 'uq_tessera_admin_tokens_key_hash', columnNames: ['key_hash'], isUnique: true }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'tessera_admin_audit',
        columns: [id, varchar('username', 100), varchar('action', 50), varchar('target', 200), text('detail', true), epochMs('at')],
        indices: [{ name: 'ix_tessera_admin_audit_at', columnNames: ['at'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'tessera_admin_audit',
      'tessera_admin_tokens',
      'tessera_admin_accounts',
      'tessera_login_failures',
      'tessera_api_tokens',
      'tessera_users',
    ]) {
      await queryRunner.dropTable(table);
    }
  }
}
