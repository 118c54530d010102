import { Table, TableForeignKey, type MigrationInterface, type QueryRunner, type TableColumnOptions } from 'typeorm';

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

/** The demo project's tables (README: "The demo project"). */
export class CreateDemoTables1763900000000 implements MigrationInterface {
  name = 'CreateDemoTables1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const timestamp = queryRunner.dataSource.driver.options.type === 'postgres' ? 'timestamp' : 'datetime';
    await queryRunner.createTable(
      new Table({
        name: 'customer',
        columns: [
          { name: 'name', type: 'varchar', length: '30', isPrimary: true },
          money('balance', { default: '0' }),
          money('credit_limit'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'product',
        columns: [key('product_number'), { name: 'name', type: 'varchar', length: '50', isUnique: true }, money('price')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'employee',
        columns: [
          key('employee_id'),
          { name: 'login', type: 'varchar', length: '15', isUnique: true },
          { name: 'name', type: 'varchar', length: '30', isNullable: true },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'purchaseorder',
        columns: [
          key('order_number'),
          { name: 'customer_name', type: 'varchar', length: '30' },
          { name: 'salesrep_id', type: 'integer', isNullable: true },
          money('amount_total', { default: '0' }),
          { name: 'paid', type: 'boolean', default: false },
          { name: 'notes', type: 'varchar', length: '1000', isNullable: true },
        ],
        foreignKeys: [
          new TableForeignKey({ columnNames: ['customer_name'], referencedTableName: 'customer', referencedColumnNames: ['name'] }),
          new TableForeignKey({ columnNames: ['salesrep_id'], referencedTableName: 'employee', referencedColumnNames: ['employee_id'] }),
        ],
        indices: [{ columnNames: ['customer_name'] }, { columnNames: ['salesrep_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'lineitem',
        columns: [
          key('lineitem_id'),
          { name: 'order_number', type: 'integer' },
          { name: 'product_number', type: 'integer' },
          { name: 'qty_ordered', type: 'integer' },
          money('product_price', { isNullable: true }),
          money('amount', { isNullable: true }),
        ],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['order_number'],
            referencedTableName: 'purchaseorder',
            referencedColumnNames: ['order_number'],
            onDelete: 'CASCADE',
          }),
          new TableForeignKey({
            columnNames: ['product_number'],
            referencedTableName: 'product',
            referencedColumnNames: ['product_number'],
          }),
        ],
        indices: [{ columnNames: ['order_number'] }, { columnNames: ['product_number'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'purchaseorder_audit',
        columns: [
          key('audit_number'),
          { name: 'order_number', type: 'integer', isNullable: true },
          money('amount_total', { isNullable: true }),
          { name: 'paid', type: 'boolean', isNullable: true },
          { name: 'notes', type: 'varchar', length: '1000', isNullable: true },
          { name: 'customer_name', type: 'varchar', length: '30', isNullable: true },
          { name: 'audit_time', type: timestamp, precision: 3, isNullable: true },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['purchaseorder_audit', 'lineitem', 'purchaseorder', 'employee', 'product', 'customer']) {
      await queryRunner.dropTable(table);
    }
  }
}
