import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { INSERT_LINE_ITEM, INSERT_LINE_ITEM_POSTGRES, LINE_ITEM, LINE_ITEM_RETURNING, numbered } from './line-item-sql.js';
import { mysqlRuleWrites, postgresRuleWrites, sqliteRuleWrites, type InsertThroughRules } from './rule-writes.js';

type Raw = Record<string, unknown>;

/** Why an update did not happen. */
export type UpdateRefusal = 'not-found' | 'checksum';

/**
 * The SQL the workloads need, and nothing else, on one driver. Every value is bound; the
 * statements are prepared once (SQLite), server-side prepared (MySQL `execute`) or named
 * (PostgreSQL), which is the best one Node process can do.
 */
export interface RawStore {
  customer(name: string): Promise<Raw | undefined>;
  /** Customers with balance > min, by balance descending then key. */
  customersOver(min: string, limit: number, offset: number): Promise<Raw[]>;
  /** Inserts one line item, its price copied from the product and its amount derived in the same statement. */
  insertLineItem(order: number, product: number, qty: number): Promise<Raw>;
  /** Inserts one line item and writes what the demo's rules write for it (raw-rules, see rule-writes.ts). */
  insertLineItemThroughRules: InsertThroughRules;
  /** Locks the customer, lets `accept` check the current row, sets the credit limit, returns the new row. */
  updateCreditLimit(name: string, creditLimit: string, accept: (current: Raw) => boolean): Promise<Raw | UpdateRefusal>;
  /** A page of orders, optionally only one sales rep's (the role's row filter). */
  orders(salesrep: number | undefined, limit: number, offset: number): Promise<Raw[]>;
  saveToken(hash: string, user: string, expiration: number): Promise<void>;
}

const SQL = {
  customer: 'SELECT name, balance, credit_limit FROM customer WHERE name = ?',
  customersOver: 'SELECT name, balance, credit_limit FROM customer WHERE balance > ? ORDER BY balance DESC, name ASC LIMIT ? OFFSET ?',
  insertLineItem: INSERT_LINE_ITEM,
  lineItem: LINE_ITEM,
  lockCustomer: 'SELECT name, balance, credit_limit FROM customer WHERE name = ? FOR UPDATE',
  setCreditLimit: 'UPDATE customer SET credit_limit = ? WHERE name = ?',
  orders:
    'SELECT order_number, customer_name, salesrep_id, amount_total, paid, notes FROM purchaseorder ORDER BY order_number LIMIT ? OFFSET ?',
  ordersOf:
    'SELECT order_number, customer_name, salesrep_id, amount_total, paid, notes FROM purchaseorder WHERE salesrep_id = ? ' +
    'ORDER BY order_number LIMIT ? OFFSET ?',
  createTokens: 'CREATE TABLE IF NOT EXISTS bench_raw_token (key_hash VARCHAR(64) PRIMARY KEY, user_name VARCHAR(30), expiration BIGINT)',
  saveToken: 'INSERT INTO bench_raw_token (key_hash, user_name, expiration) VALUES (?, ?, ?)',
};

function sqliteStore(path: string): RawStore {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 10000');
  db.pragma('synchronous = NORMAL');
  db.exec(SQL.createTokens);
  const customer = db.prepare(SQL.customer);
  const customersOver = db.prepare(SQL.customersOver);
  const insertLineItem = db.prepare(SQL.insertLineItem + LINE_ITEM_RETURNING);
  const setCreditLimit = db.prepare(SQL.setCreditLimit);
  const orders = db.prepare(SQL.orders);
  const ordersOf = db.prepare(SQL.ordersOf);
  const saveToken = db.prepare(SQL.saveToken);
  // One connection, synchronous calls: the transaction cannot interleave with another request.
  const update = db.transaction((name: string, creditLimit: string, accept: (current: Raw) => boolean): Raw | UpdateRefusal => {
    const current = customer.get(name) as Raw | undefined;
    if (!current) return 'not-found';
    if (!accept(current)) return 'checksum';
    setCreditLimit.run(creditLimit, name);
    return customer.get(name) as Raw;
  });
  return {
    customer: async (name) => customer.get(name) as Raw | undefined,
    customersOver: async (min, limit, offset) => customersOver.all(min, limit, offset) as Raw[],
    insertLineItem: async (order, product, qty) => insertLineItem.get(order, qty, qty, product) as Raw,
    insertLineItemThroughRules: sqliteRuleWrites(db),
    updateCreditLimit: async (name, creditLimit, accept) => update.immediate(name, creditLimit, accept),
    orders: async (salesrep, limit, offset) =>
      (salesrep === undefined ? orders.all(limit, offset) : ordersOf.all(salesrep, limit, offset)) as Raw[],
    saveToken: async (hash, user, expiration) => {
      saveToken.run(hash, user, expiration);
    },
  };
}

async function mysqlStore(url: string, poolSize: number): Promise<RawStore> {
  const pool = mysql.createPool({
    uri: url,
    connectionLimit: poolSize,
    supportBigNumbers: true,
    bigNumberStrings: true,
    timezone: 'Z',
    charset: 'utf8mb4_unicode_ci',
  });
  await pool.query(SQL.createTokens);
  const rows = async (sql: string, values: Array<string | number>): Promise<Raw[]> => (await pool.execute(sql, values))[0] as Raw[];
  return {
    customer: async (name) => (await rows(SQL.customer, [name]))[0],
    // LIMIT/OFFSET as text: MySQL's prepared LIMIT wants integers, which mysql2 sends as doubles.
    customersOver: (min, limit, offset) => rows(SQL.customersOver, [min, String(limit), String(offset)]),
    insertLineItem: async (order, product, qty) => {
      const [result] = await pool.execute(SQL.insertLineItem, [order, qty, qty, product]);
      return (await rows(SQL.lineItem, [(result as { insertId: number }).insertId]))[0]!;
    },
    insertLineItemThroughRules: mysqlRuleWrites(pool),
    updateCreditLimit: async (name, creditLimit, accept) => {
      const connection = await pool.getConnection();
      try {
        await connection.query('START TRANSACTION');
        const [locked] = await connection.execute(SQL.lockCustomer, [name]);
        const current = (locked as Raw[])[0];
        const refusal: UpdateRefusal | undefined = !current ? 'not-found' : !accept(current) ? 'checksum' : undefined;
        if (refusal) {
          await connection.query('ROLLBACK');
          return refusal;
        }
        await connection.execute(SQL.setCreditLimit, [creditLimit, name]);
        const [after] = await connection.execute(SQL.customer, [name]);
        await connection.query('COMMIT');
        return (after as Raw[])[0]!;
      } catch (error) {
        await connection.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        connection.release();
      }
    },
    orders: (salesrep, limit, offset) =>
      salesrep === undefined
        ? rows(SQL.orders, [String(limit), String(offset)])
        : rows(SQL.ordersOf, [salesrep, String(limit), String(offset)]),
    saveToken: async (hash, user, expiration) => {
      await pool.execute(SQL.saveToken, [hash, user, expiration]);
    },
  };
}

async function postgresStore(url: string, poolSize: number): Promise<RawStore> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  await pool.query(SQL.createTokens);
  const named = (name: string, sql: string) => {
    const text = numbered(sql);
    return async (values: unknown[]): Promise<Raw[]> => (await pool.query({ name, text, values })).rows as Raw[];
  };
  const customer = named('customer', SQL.customer);
  const customersOver = named('customersOver', SQL.customersOver);
  const insertLineItem = named('insertLineItem', INSERT_LINE_ITEM_POSTGRES + LINE_ITEM_RETURNING);
  const orders = named('orders', SQL.orders);
  const ordersOf = named('ordersOf', SQL.ordersOf);
  const saveToken = named('saveToken', SQL.saveToken);
  return {
    customer: async (name) => (await customer([name]))[0],
    customersOver: (min, limit, offset) => customersOver([min, limit, offset]),
    insertLineItem: async (order, product, qty) => (await insertLineItem([order, qty, qty, product]))[0]!,
    insertLineItemThroughRules: postgresRuleWrites(pool),
    updateCreditLimit: async (name, creditLimit, accept) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
        const current = (await client.query({ name: 'lockCustomer', text: numbered(SQL.lockCustomer), values: [name] })).rows[0] as
          Raw | undefined;
        const refusal: UpdateRefusal | undefined = !current ? 'not-found' : !accept(current) ? 'checksum' : undefined;
        if (refusal) {
          await client.query('ROLLBACK');
          return refusal;
        }
        await client.query({ name: 'setCreditLimit', text: numbered(SQL.setCreditLimit), values: [creditLimit, name] });
        const after = (await client.query({ name: 'customer', text: numbered(SQL.customer), values: [name] })).rows[0] as Raw;
        await client.query('COMMIT');
        return after;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    orders: (salesrep, limit, offset) => (salesrep === undefined ? orders([limit, offset]) : ordersOf([salesrep, limit, offset])),
    saveToken: async (hash, user, expiration) => {
      await saveToken([hash, user, expiration]);
    },
  };
}

/** A store on the database a Tessera DATABASE_URL names; `poolSize` as Tessera's DB_POOL_SIZE. */
export async function openRawStore(databaseUrl: string, poolSize: number): Promise<RawStore> {
  if (databaseUrl.startsWith('sqlite:')) return sqliteStore(databaseUrl.slice('sqlite:'.length));
  if (/^(mysql|mariadb):/.test(databaseUrl)) return mysqlStore(databaseUrl.replace(/^mariadb:/, 'mysql:'), poolSize);
  return postgresStore(databaseUrl, poolSize);
}
