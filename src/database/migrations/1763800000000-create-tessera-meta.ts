import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

export class CreateTesseraMeta1763800000000 implements MigrationInterface {
  name = 'CreateTesseraMeta1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'tessera_meta',
        columns: [
          { name: 'name', type: 'varchar', length: '100', isPrimary: true },
          { name: 'value', type: 'varchar', length: '1000' },
        ],
      }),
    );
    await queryRunner.manager
      .createQueryBuilder()
      .insert()
      .into('tessera_meta', ['name', 'value'])
      .values({ name: 'installed_at', value: new Date().toISOString() })
      .execute();
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('tessera_meta');
  }
}
