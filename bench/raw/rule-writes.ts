import type Database from 'better-sqlite3';
import type mysql from 'mysql2/promise';
import type pg from 'pg';
import { driverTrue } from './rows.js';
import { INSERT_LINE_ITEM, INSERT_LINE_ITEM_POSTGRES, LINE_ITEM, LINE_ITEM_RETURNING, numbered } from './line-item-sql.js';

type Raw = Record<string, unknown>;
/** A value bound to a statement: the drivers' own values, passed back as they came. */
type Bound = string | number | boolean | Date | null;

/**
 * What one line item's insert writes by the demo's rules (src/demo/rules.ts), by hand: the
 * line item (price copied from its product, amount derived), its order's `amount_total` and
 * `amount_owed` moved by the amount, the customer's `balance` too when the order is unpaid (the
 * balance sums unpaid orders only) and held to the credit limit, and an audit row holding the
 * order as it was. The SQL a careful hand-written service would run for the same rows, so
 * `raw-rules` shows what these writes cost without Tessera (raw's own W3 writes the line item
 * alone).
 */
export interface RuleWrites {
  lineItem: Raw;
  /** The order before the insert (what the audit row holds) and after it. */
  orderBefore: Raw;
  order: Raw;
  /** The customer after the insert; absent when the order is paid, whose amounts the balance leaves out. */
  customer?: Raw;
  auditNumber: number;
}

/** Why nothing was written: no such order or product, or the balance would pass the credit limit (the demo's constraint). */
export type RuleRefusal = 'no-order' | 'no-product' | 'over-limit';

export type InsertThroughRules = (order: number, product: number, qty: number, auditTime: Date) => Promise<RuleWrites | RuleRefusal>;

const ORDER_COLUMNS = 'order_number, customer_name, salesrep_id, amount_total, paid, amount_paid, amount_owed, notes';
const CUSTOMER_COLUMNS = 'name, balance, credit_limit, balance > credit_limit AS over_limit';

const SQL = {
  order: `SELECT ${ORDER_COLUMNS} FROM purchaseorder WHERE order_number = ?`,
  addToOrder: 'UPDATE purchaseorder SET amount_total = amount_total + ?, amount_owed = amount_owed + ? WHERE order_number = ?',
  addToBalance: 'UPDATE customer SET balance = balance + ? WHERE name = ?',
  customer: `SELECT ${CUSTOMER_COLUMNS} FROM customer WHERE name = ?`,
  insertAudit:
    'INSERT INTO purchaseorder_audit (order_number, amount_total, paid, notes, customer_name, audit_time) VALUES (?, ?, ?, ?, ?, ?)',
};

const isPaid = (order: Raw): boolean => driverTrue(order.paid);
const isOver = (customer: Raw): boolean => driverTrue(customer.over_limit);

/**
 * SQLite: one connection and synchronous calls, so the transaction (BEGIN IMMEDIATE) cannot
 * interleave with another request; UPDATE … RETURNING gives each row back in the same statement.
 */
export function sqliteRuleWrites(db: Database): InsertThroughRules {
  const order = db.prepare(SQL.order);
  const insertLineItem = db.prepare(INSERT_LINE_ITEM + LINE_ITEM_RETURNING);
  const addToOrder = db.prepare(`${SQL.addToOrder} RETURNING ${ORDER_COLUMNS}`);
  const addToBalance = db.prepare(`${SQL.addToBalance} RETURNING ${CUSTOMER_COLUMNS}`);
  const insertAudit = db.prepare(`${SQL.insertAudit} RETURNING audit_number`);
  const write = db.transaction((orderNumber: number, product: number, qty: number, auditTime: Date): RuleWrites | RuleRefusal => {
    const orderBefore = order.get(orderNumber) as Raw | undefined;
    if (!orderBefore) return 'no-order';
    const lineItem = insertLineItem.get(orderNumber, qty, qty, product) as Raw | undefined;
    if (!lineItem) return 'no-product';
    const after = addToOrder.get(lineItem.amount, lineItem.amount, orderNumber) as Raw;
    const customer = isPaid(orderBefore) ? undefined : (addToBalance.get(lineItem.amount, orderBefore.customer_name) as Raw);
    // Throwing rolls the transaction back; the refusal is answered below.
    if (customer && isOver(customer)) throw new OverLimit();
    const { audit_number: auditNumber } = insertAudit.get(...auditValues(orderBefore, auditTime.toISOString())) as { audit_number: number };
    return { lineItem, orderBefore, order: after, customer, auditNumber };
  });
  return async (orderNumber, product, qty, auditTime) => {
    try {
      return write.immediate(orderNumber, product, qty, auditTime);
    } catch (error) {
      if (error instanceof OverLimit) return 'over-limit';
      throw error;
    }
  };
}

class OverLimit extends Error {}

function auditValues(order: Raw, auditTime: Bound): Bound[] {
  return [order.order_number, order.amount_total, order.paid, order.notes, order.customer_name, auditTime] as Bound[];
}

/**
 * MySQL and MariaDB: the order is locked first (FOR UPDATE), so the line item's foreign-key
 * check finds it locked already and two inserts into one order queue instead of deadlocking
 * on a shared lock each wants to raise; no UPDATE … RETURNING, so each row is read back.
 */
export function mysqlRuleWrites(pool: mysql.Pool): InsertThroughRules {
  return async (orderNumber, product, qty, auditTime) => {
    const connection = await pool.getConnection();
    const rows = async (sql: string, values: Bound[]): Promise<Raw[]> => (await connection.execute(sql, values))[0] as Raw[];
    const written = async (sql: string, values: Bound[]): Promise<number> =>
      ((await connection.execute(sql, values))[0] as { insertId: number }).insertId;
    try {
      await connection.query('START TRANSACTION');
      const refuse = async (why: RuleRefusal): Promise<RuleRefusal> => {
        await connection.query('ROLLBACK');
        return why;
      };
      const orderBefore = (await rows(`${SQL.order} FOR UPDATE`, [orderNumber]))[0];
      if (!orderBefore) return await refuse('no-order');
      const lineItemId = await written(INSERT_LINE_ITEM, [orderNumber, qty, qty, product]);
      const lineItem = lineItemId ? (await rows(LINE_ITEM, [lineItemId]))[0] : undefined;
      if (!lineItem) return await refuse('no-product');
      await connection.execute(SQL.addToOrder, [lineItem.amount as Bound, lineItem.amount as Bound, orderNumber]);
      const order = (await rows(SQL.order, [orderNumber]))[0]!;
      let customer: Raw | undefined;
      if (!isPaid(orderBefore)) {
        await connection.execute(SQL.addToBalance, [lineItem.amount as Bound, orderBefore.customer_name as Bound]);
        customer = (await rows(SQL.customer, [orderBefore.customer_name as Bound]))[0]!;
        if (isOver(customer)) return await refuse('over-limit');
      }
      const auditNumber = await written(SQL.insertAudit, auditValues(orderBefore, auditTime));
      await connection.query('COMMIT');
      return { lineItem, orderBefore, order, customer, auditNumber };
    } catch (error) {
      await connection.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      connection.release();
    }
  };
}

/**
 * PostgreSQL: named (server-side prepared) statements and UPDATE … RETURNING. The order is
 * locked first, as on MySQL, so the customer is always locked after its order.
 */
export function postgresRuleWrites(pool: pg.Pool): InsertThroughRules {
  const statements = {
    lockOrder: numbered(`${SQL.order} FOR UPDATE`),
    insertLineItem: numbered(INSERT_LINE_ITEM_POSTGRES + LINE_ITEM_RETURNING),
    addToOrder: numbered(`${SQL.addToOrder} RETURNING ${ORDER_COLUMNS}`),
    addToBalance: numbered(`${SQL.addToBalance} RETURNING ${CUSTOMER_COLUMNS}`),
    insertAudit: numbered(`${SQL.insertAudit} RETURNING audit_number`),
  };
  return async (orderNumber, product, qty, auditTime) => {
    const client = await pool.connect();
    const row = async (name: keyof typeof statements, values: unknown[]): Promise<Raw | undefined> =>
      (await client.query({ name: `rules_${name}`, text: statements[name], values })).rows[0] as Raw | undefined;
    try {
      await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
      const refuse = async (why: RuleRefusal): Promise<RuleRefusal> => {
        await client.query('ROLLBACK');
        return why;
      };
      const orderBefore = await row('lockOrder', [orderNumber]);
      if (!orderBefore) return await refuse('no-order');
      const lineItem = await row('insertLineItem', [orderNumber, qty, qty, product]);
      if (!lineItem) return await refuse('no-product');
      const order = (await row('addToOrder', [lineItem.amount, lineItem.amount, orderNumber]))!;
      const customer = isPaid(orderBefore) ? undefined : await row('addToBalance', [lineItem.amount, orderBefore.customer_name]);
      if (customer && isOver(customer)) return await refuse('over-limit');
      const audit = (await row('insertAudit', auditValues(orderBefore, auditTime.toISOString())))!;
      await client.query('COMMIT');
      return { lineItem, orderBefore, order, customer, auditNumber: Number(audit.audit_number) };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
}
