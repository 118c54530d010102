import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * An employee's salary (decimal(19,4), money like the other amounts), for the `giveRaise` function. Null for
 * employees hired before it: the seed gives the demo's employees theirs.
 */
export class EmployeeSalary1763900006000 implements MigrationInterface {
  name = 'EmployeeSalary1763900006000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'employee',
      new TableColumn({ name: 'salary', type: 'decimal', precision: 19, scale: 4, isNullable: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('employee', 'salary');
  }
}
