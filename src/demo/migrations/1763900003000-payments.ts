import { Table, TableColumn, TableForeignKey, type MigrationInterface, type QueryRunner, type TableColumnOptions } from 'typeorm';

const money = (name: string, extra: Partial<TableColumnOptions> = {}): TableColumnOptions => ({
  name,
  type: 'decimal',
  precision: 19,
  scale: 4,
  ...extra,
});
const key = (name: string): TableColumnOptions => ({
  name,
  type: 'integer',
  isPrimary: true,
  isGenerated: true,
  generationStrategy: 'increment',
});

/**
 * Payments allocated to orders (the `allocate` rule): `payment`, `payment_allocation`, and an
 * order's `amount_paid` (Σ of its allocations) and `amount_owed` (total − paid), which the
 * customer's balance now sums. Existing orders have nothing paid: what they owe is their total.
 */
export class Payments1763900003000 implements MigrationInterface {
  name = 'Payments1763900003000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('purchaseorder', [
      new TableColumn(money('amount_paid', { default: '0' })),
      new TableColumn(money('amount_owed', { default: '0' })),
    ]);
    const q = (name: string): string => queryRunner.dataSource.driver.escape(name);
    await queryRunner.query(`UPDATE ${q('purchaseorder')} SET ${q('amount_owed')} = ${q('amount_total')}`);
    await queryRunner.createTable(
      new Table({
        name: 'payment',
        columns: [
          key('payment_id'),
          { name: 'customer_name', type: 'varchar', length: '30' },
          money('amount'),
          money('amount_allocated', { default: '0' }),
          money('amount_unallocated', { default: '0' }),
        ],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['customer_name'],
            referencedTableName: 'customer',
            referencedColumnNames: ['name'],
            onDelete: 'NO ACTION',
            onUpdate: 'NO ACTION',
          }),
        ],
        indices: [{ columnNames: ['customer_name'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'payment_allocation',
        columns: [
          key('allocation_id'),
          { name: 'payment_id', type: 'integer' },
          { name: 'order_number', type: 'integer' },
          money('amount'),
        ],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['payment_id'],
            referencedTableName: 'payment',
            referencedColumnNames: ['payment_id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          }),
          new TableForeignKey({
            columnNames: ['order_number'],
            referencedTableName: 'purchaseorder',
            referencedColumnNames: ['order_number'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          }),
        ],
        indices: [{ columnNames: ['payment_id'] }, { columnNames: ['order_number'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('payment_allocation');
    await queryRunner.dropTable('payment');
    await queryRunner.dropColumn('purchaseorder', 'amount_owed');
    await queryRunner.dropColumn('purchaseorder', 'amount_paid');
  }
}
