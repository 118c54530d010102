import { TableColumn, TableForeignKey, type MigrationInterface, type QueryRunner } from 'typeorm';

type ForeignKeyAction = 'NO ACTION' | 'CASCADE';

/** The demo's four foreign keys, by the names the first demo migration gave them. */
const FOREIGN_KEYS: Array<{ table: string; name: string; column: string; references: [string, string]; onDelete: ForeignKeyAction }> = [
  {
    table: 'purchaseorder',
    name: 'FK_850ddb4df44670b48ab178548e4',
    column: 'customer_name',
    references: ['customer', 'name'],
    onDelete: 'NO ACTION',
  },
  {
    table: 'purchaseorder',
    name: 'FK_11cb14af1be087936b132d55205',
    column: 'salesrep_id',
    references: ['employee', 'employee_id'],
    onDelete: 'NO ACTION',
  },
  {
    table: 'lineitem',
    name: 'FK_bb7f1c59a0e2d1def7f5a6db061',
    column: 'order_number',
    references: ['purchaseorder', 'order_number'],
    onDelete: 'CASCADE',
  },
  {
    table: 'lineitem',
    name: 'FK_26ac8f90e4192f98e74adef8315',
    column: 'product_number',
    references: ['product', 'product_number'],
    onDelete: 'NO ACTION',
  },
];

/**
 * The first demo migration left two things to each database's own defaults, so the schema it
 * made differed from the entities on some of them (`migration:generate` wanted to change it):
 * - SQLite kept `purchaseorder.paid`'s default as written, `false`, where the entity's is `0`
 *   (the same value: SQLite has no boolean type). Changing it rebuilds the table, rows kept.
 * - MySQL/MariaDB recorded foreign keys made without ON DELETE/ON UPDATE as RESTRICT, where the
 *   entities say NO ACTION (the same behaviour on InnoDB). They are made again, spelled out.
 * PostgreSQL already matches: nothing to do there. Rows and behaviour are unchanged everywhere.
 */
export class PortableDemoSchema1763900001000 implements MigrationInterface {
  name = 'PortableDemoSchema1763900001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const type = queryRunner.dataSource.driver.options.type;
    if (type === 'better-sqlite3') await setPaidDefault(queryRunner, 0);
    if (type === 'mysql' || type === 'mariadb') await remakeForeignKeys(queryRunner, true);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const type = queryRunner.dataSource.driver.options.type;
    if (type === 'better-sqlite3') await setPaidDefault(queryRunner, false);
    if (type === 'mysql' || type === 'mariadb') await remakeForeignKeys(queryRunner, false);
  }
}

async function setPaidDefault(queryRunner: QueryRunner, value: 0 | false): Promise<void> {
  await queryRunner.changeColumn(
    'purchaseorder',
    'paid',
    new TableColumn({ name: 'paid', type: 'boolean', isNullable: false, default: value }),
  );
}

/** `spelledOut`: with the actions the entities declare; otherwise as the first migration made them. */
async function remakeForeignKeys(queryRunner: QueryRunner, spelledOut: boolean): Promise<void> {
  for (const fk of FOREIGN_KEYS) {
    await queryRunner.dropForeignKey(fk.table, fk.name);
    await queryRunner.createForeignKey(
      fk.table,
      new TableForeignKey({
        name: fk.name,
        columnNames: [fk.column],
        referencedTableName: fk.references[0],
        referencedColumnNames: [fk.references[1]],
        ...(spelledOut ? { onDelete: fk.onDelete, onUpdate: 'NO ACTION' } : fk.onDelete === 'CASCADE' ? { onDelete: 'CASCADE' } : {}),
      }),
    );
  }
}
