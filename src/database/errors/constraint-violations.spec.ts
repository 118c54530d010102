import { describeViolation, statementTarget, violationKindOf } from './constraint-violations.js';

describe('constraint violations', () => {
  it.each([
    [
      { kind: 'foreign key', table: 'lineitem', columns: ['product_number'], referencedTable: 'product' },
      'foreign key: lineitem.product_number → product',
    ],
    [{ kind: 'not null', table: 'customer', columns: ['credit_limit'] }, 'not null: customer.credit_limit'],
    [{ kind: 'unique', table: 'shelf_slot', columns: ['warehouse', 'aisle'] }, 'unique: shelf_slot.warehouse, aisle'],
    [
      { kind: 'foreign key', table: 'product', columns: [], stillReferenced: true },
      'foreign key: rows of another table refer to this product row',
    ],
  ] as const)('describes %o as "%s"', (violation, text) => {
    expect(describeViolation({ ...violation, columns: [...violation.columns] })).toBe(text);
  });

  it.each([
    [{ code: 'ER_NO_REFERENCED_ROW_2', errno: 1452 }, 'foreign key'],
    [{ errno: 1048 }, 'not null'],
    [{ code: '23505' }, 'unique'],
    [{ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' }, 'unique'],
    [{ code: '23514' }, 'check'],
    [{ code: 'ER_LOCK_DEADLOCK', errno: 1213 }, undefined],
  ])('reads %o as %s', (driverError, kind) => {
    expect(violationKindOf({ driverError, message: 'x' })).toBe(kind);
  });

  it('reads the written table and columns of a failed statement, on every dialect', () => {
    expect(statementTarget('INSERT INTO "lineitem" ("order_number", "product_number") VALUES (?, ?) RETURNING "lineitem_id"')).toEqual({
      table: 'lineitem',
      verb: 'insert',
      columns: ['order_number', 'product_number'],
    });
    expect(statementTarget('UPDATE `customer` SET `credit_limit` = ?, `balance` = ? WHERE `name` = ?')).toEqual({
      table: 'customer',
      verb: 'update',
      columns: ['credit_limit', 'balance'],
    });
    expect(statementTarget('DELETE FROM "product" WHERE "product_number" = $1')).toEqual({ table: 'product', verb: 'delete', columns: [] });
    expect(statementTarget('SELECT 1')).toBeUndefined();
  });
});
