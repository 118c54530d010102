import { describe, expect, it } from '@jest/globals';
import { mysqlViewBody, sqliteNamesIn } from './view-definitions.js';

describe('mysqlViewBody: a MySQL/MariaDB view definition made fit for another database', () => {
  const relations = new Set(['customer', 'address', 'shop']);

  it("takes the database's name out of every qualified name, and says what the view reads and which stored functions it calls", () => {
    const made = mysqlViewBody(
      "select `shop`.`customer`.`id` AS `id`,`shop`.`balance_of`(`c`.`id`) AS `b`,'`shop`.`x`' AS `s` from (`shop`.`customer` `c` join `shop`.`address` on(1))",
      'shop',
      relations,
    );
    expect(made).toEqual({
      body: "select `customer`.`id` AS `id`,`balance_of`(`c`.`id`) AS `b`,'`shop`.`x`' AS `s` from (`customer` `c` join `address` on(1))",
      reads: ['customer', 'address'],
      needs: [{ kind: 'function', name: 'balance_of' }],
    });
  });

  it('keeps a table named like its database, and a doubled backquote inside a name', () => {
    expect(mysqlViewBody('select `a``b` AS `x` from `shop`.`shop`', 'shop', relations)).toEqual({
      body: 'select `a``b` AS `x` from `shop`',
      reads: ['shop'],
      needs: [],
    });
  });

  it('refuses to guess where the database name is used otherwise, or names what is no table or view', () => {
    expect(mysqlViewBody('select `shop` AS `x`', 'shop', relations)).toEqual({
      unwritable: "its definition names its database shop otherwise than before a table's name",
    });
    expect(mysqlViewBody('select 1 from `shop`.`gone`', 'shop', relations)).toEqual({
      unwritable: 'its definition names shop.gone, which is no table or view Tessera read',
    });
  });
});

describe('sqliteNamesIn: the tables and views an SQLite statement names', () => {
  const relations = new Map([
    ['customer', 'Customer'],
    ['order items', 'order items'],
    ['totals', 'totals'],
  ]);

  it('finds bare and quoted names in any case, and none in strings or comments', () => {
    expect(
      sqliteNamesIn(
        `CREATE VIEW totals AS SELECT c.name, 'customer' AS s FROM CUSTOMER c -- totals of customer\n JOIN [order items] o /* "x" */ ON 1`,
        relations,
      ),
    ).toEqual(['Customer', 'order items', 'totals']);
    expect(sqliteNamesIn('SELECT 1 AS "customer"""', relations)).toEqual([]);
  });
});
