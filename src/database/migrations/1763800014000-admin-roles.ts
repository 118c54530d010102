import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

const ACCOUNTS = 'tessera_admin_accounts';

/**
 * Admin accounts get a role: `admin` (everything) or `auditor` (read-only). Accounts made
 * before this migration keep every right they had: they become `admin`.
 */
export class AdminRoles1763800014000 implements MigrationInterface {
  name = 'AdminRoles1763800014000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      ACCOUNTS,
      new TableColumn({ name: 'role', type: 'varchar', length: '20', isNullable: false, default: "'admin'" }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn(ACCOUNTS, 'role');
  }
}
