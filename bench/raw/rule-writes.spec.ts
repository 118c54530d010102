import { beforeEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { sqliteRuleWrites, type InsertThroughRules, type RuleWrites } from './rule-writes.js';

/** The demo's tables as far as a line item's rules touch them, on an in-memory SQLite. */
const SCHEMA = `
  CREATE TABLE customer (name TEXT PRIMARY KEY, balance REAL NOT NULL, credit_limit REAL NOT NULL);
  CREATE TABLE product (product_number INTEGER PRIMARY KEY, name TEXT, price REAL NOT NULL);
  CREATE TABLE purchaseorder (order_number INTEGER PRIMARY KEY, customer_name TEXT NOT NULL REFERENCES customer(name),
    salesrep_id INTEGER, amount_total REAL NOT NULL, paid INTEGER NOT NULL, amount_paid REAL NOT NULL, amount_owed REAL NOT NULL, notes TEXT);
  CREATE TABLE lineitem (lineitem_id INTEGER PRIMARY KEY AUTOINCREMENT, order_number INTEGER NOT NULL REFERENCES purchaseorder(order_number),
    product_number INTEGER NOT NULL REFERENCES product(product_number), qty_ordered INTEGER NOT NULL, product_price REAL, amount REAL);
  CREATE TABLE purchaseorder_audit (audit_number INTEGER PRIMARY KEY AUTOINCREMENT, order_number INTEGER, amount_total REAL,
    paid INTEGER, notes TEXT, customer_name TEXT, audit_time TEXT);
  INSERT INTO customer VALUES ('Alpha', 150, 1000), ('Beta', 0, 10);
  INSERT INTO product VALUES (1, 'widget', 25), (2, 'gadget', 2.5);
  INSERT INTO purchaseorder VALUES (1, 'Alpha', 1, 150, 0, 0, 150, 'open'), (2, 'Alpha', 1, 40, 1, 40, 0, 'paid'), (3, 'Beta', 1, 0, 0, 0, 0, NULL);
`;

describe('raw-rules: what the demo rules write for a line item, by hand (SQLite)', () => {
  let db: Database;
  let insert: InsertThroughRules;
  const at = new Date('2026-12-07T10:00:00.000Z');
  const one = (sql: string, ...values: unknown[]): unknown => db.prepare(sql).get(...values);
  const count = (table: string): number => (one(`SELECT COUNT(*) AS n FROM ${table}`) as { n: number }).n;

  beforeEach(() => {
    db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    db.exec(SCHEMA);
    insert = sqliteRuleWrites(db);
  });

  it("copies the price, derives the amount, moves the order's totals and the customer's balance, and audits the order as it was", async () => {
    const written = (await insert(1, 1, 3, at)) as RuleWrites;
    expect(written.lineItem).toMatchObject({ order_number: 1, product_number: 1, qty_ordered: 3, product_price: 25, amount: 75 });
    expect(written.orderBefore).toMatchObject({ amount_total: 150, amount_owed: 150 });
    expect(written.order).toMatchObject({ order_number: 1, amount_total: 225, amount_owed: 225, paid: 0, notes: 'open' });
    expect(written.customer).toMatchObject({ name: 'Alpha', balance: 225, credit_limit: 1000 });
    expect(one('SELECT * FROM purchaseorder_audit WHERE audit_number = ?', written.auditNumber)).toEqual({
      audit_number: written.auditNumber,
      order_number: 1,
      amount_total: 150,
      paid: 0,
      notes: 'open',
      customer_name: 'Alpha',
      audit_time: '2026-12-07T10:00:00.000Z',
    });
    expect(one('SELECT balance FROM customer WHERE name = ?', 'Alpha')).toEqual({ balance: 225 });
  });

  it('leaves the balance alone for a paid order, whose amounts it does not sum', async () => {
    const written = (await insert(2, 2, 2, at)) as RuleWrites;
    expect(written.order).toMatchObject({ amount_total: 45, amount_owed: 5, paid: 1 });
    expect(written.customer).toBeUndefined();
    expect(one('SELECT balance FROM customer WHERE name = ?', 'Alpha')).toEqual({ balance: 150 });
    expect(count('purchaseorder_audit')).toBe(1);
  });

  it('refuses a line item that would take the balance past the credit limit, and keeps nothing of it', async () => {
    expect(await insert(3, 1, 1, at)).toBe('over-limit');
    expect(count('lineitem')).toBe(0);
    expect(count('purchaseorder_audit')).toBe(0);
    expect(one('SELECT amount_total FROM purchaseorder WHERE order_number = 3')).toEqual({ amount_total: 0 });
    expect(one('SELECT balance FROM customer WHERE name = ?', 'Beta')).toEqual({ balance: 0 });
  });

  it('refuses an order or a product that does not exist, writing nothing', async () => {
    expect(await insert(99, 1, 1, at)).toBe('no-order');
    expect(await insert(1, 99, 1, at)).toBe('no-product');
    expect([count('lineitem'), count('purchaseorder_audit')]).toEqual([0, 0]);
    expect(one('SELECT amount_total FROM purchaseorder WHERE order_number = 1')).toEqual({ amount_total: 150 });
  });
});
