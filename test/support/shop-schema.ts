import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { ScratchDatabase } from './test-databases.js';

type Dialect = 'sqlite' | 'mysql' | 'postgres';

/** Per dialect: the auto-increment key, booleans, timestamps and binary columns. */
const TYPES: Record<Dialect, { serial: string; bool: string; stamp: string; blob: string; yes: string; quote: string }> = {
  sqlite: { serial: 'INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT', bool: 'BOOLEAN', stamp: 'DATETIME', blob: 'BLOB', yes: '1', quote: '"' },
  mysql: { serial: 'INT AUTO_INCREMENT PRIMARY KEY', bool: 'BOOLEAN', stamp: 'DATETIME', blob: 'BLOB', yes: 'TRUE', quote: '`' },
  postgres: { serial: 'SERIAL PRIMARY KEY', bool: 'BOOLEAN', stamp: 'TIMESTAMP', blob: 'BYTEA', yes: 'TRUE', quote: '"' },
};

/**
 * A shop schema written by hand in plain SQL, as a team's existing database would be: ten tables
 * with a self-reference (category.parent_id), a many-to-many through a join table with a
 * composite key (product_supplier), a composite key of its own (order_line), unique and nullable
 * columns, decimals, dates and timestamps, defaults, indexes, a table without a primary key
 * (event_log), and binary columns, nullable (product.photo) and NOT NULL without a default
 * (attachment.content), which Tessera serves.
 *
 * Names are quoted ("x", or `x` on MySQL): TypeORM reads SQLite's constraint names and its
 * AUTOINCREMENT key back only from quoted names, as it writes them itself.
 */
export function shopSchemaSql(dialect: Dialect): string[] {
  const t = TYPES[dialect];
  return quoteNames(t.quote, [
    `CREATE TABLE category (
      id ${t.serial},
      name VARCHAR(40) NOT NULL UNIQUE,
      parent_id INTEGER NULL,
      CONSTRAINT fk_category_parent FOREIGN KEY (parent_id) REFERENCES category (id)
    )`,
    `CREATE TABLE supplier (
      supplier_id INTEGER NOT NULL PRIMARY KEY,
      name VARCHAR(60) NOT NULL,
      email VARCHAR(120) NULL,
      CONSTRAINT uq_supplier_email UNIQUE (email)
    )`,
    `CREATE TABLE product (
      id ${t.serial},
      sku VARCHAR(20) NOT NULL,
      name VARCHAR(80) NOT NULL,
      category_id INTEGER NOT NULL,
      price DECIMAL(12,2) NOT NULL DEFAULT 0,
      weight DECIMAL(8,3) NULL,
      launched DATE NULL,
      active ${t.bool} NOT NULL DEFAULT ${t.yes},
      status VARCHAR(12) NOT NULL DEFAULT 'draft',
      description TEXT NULL,
      photo ${t.blob} NULL,
      CONSTRAINT uq_product_sku UNIQUE (sku),
      CONSTRAINT fk_product_category FOREIGN KEY (category_id) REFERENCES category (id)
    )`,
    `CREATE INDEX ix_product_category ON product (category_id)`,
    `CREATE TABLE product_supplier (
      product_id INTEGER NOT NULL,
      supplier_id INTEGER NOT NULL,
      cost DECIMAL(10,2) NULL,
      PRIMARY KEY (product_id, supplier_id),
      CONSTRAINT fk_ps_product FOREIGN KEY (product_id) REFERENCES product (id) ON DELETE CASCADE,
      CONSTRAINT fk_ps_supplier FOREIGN KEY (supplier_id) REFERENCES supplier (supplier_id)
    )`,
    `CREATE INDEX ix_ps_supplier ON product_supplier (supplier_id)`,
    `CREATE TABLE customer (
      code VARCHAR(10) NOT NULL PRIMARY KEY,
      name VARCHAR(60) NOT NULL,
      vip ${t.bool} NULL,
      credit_limit DECIMAL(19,4) NULL,
      joined_at ${t.stamp} NULL
    )`,
    `CREATE TABLE orders (
      order_id ${t.serial},
      customer_code VARCHAR(10) NOT NULL,
      ordered_on DATE NOT NULL,
      shipped_at ${t.stamp} NULL,
      note VARCHAR(200) NULL,
      CONSTRAINT fk_orders_customer FOREIGN KEY (customer_code) REFERENCES customer (code)
    )`,
    `CREATE INDEX ix_orders_customer ON orders (customer_code)`,
    `CREATE INDEX ix_orders_ordered_on ON orders (ordered_on)`,
    `CREATE TABLE order_line (
      order_id INTEGER NOT NULL,
      line_no INTEGER NOT NULL,
      product_id INTEGER NOT NULL,
      qty INTEGER NOT NULL DEFAULT 1,
      unit_price DECIMAL(12,2) NOT NULL,
      PRIMARY KEY (order_id, line_no),
      CONSTRAINT fk_line_order FOREIGN KEY (order_id) REFERENCES orders (order_id) ON DELETE CASCADE,
      CONSTRAINT fk_line_product FOREIGN KEY (product_id) REFERENCES product (id)
    )`,
    `CREATE INDEX ix_line_product ON order_line (product_id)`,
    `CREATE TABLE warehouse_bin (
      warehouse VARCHAR(10) NOT NULL,
      bin VARCHAR(10) NOT NULL,
      label VARCHAR(30) NOT NULL,
      capacity INTEGER NULL,
      PRIMARY KEY (warehouse, bin),
      CONSTRAINT uq_bin_label UNIQUE (warehouse, label)
    )`,
    `CREATE TABLE event_log (
      happened_at ${t.stamp} NULL,
      message VARCHAR(200) NULL
    )`,
    `CREATE TABLE attachment (
      id INTEGER NOT NULL PRIMARY KEY,
      content ${t.blob} NOT NULL
    )`,
  ]);
}

const KEYWORDS = new Set([
  'CREATE',
  'TABLE',
  'INDEX',
  'ON',
  'NOT',
  'NULL',
  'PRIMARY',
  'KEY',
  'UNIQUE',
  'CONSTRAINT',
  'FOREIGN',
  'REFERENCES',
  'DELETE',
  'CASCADE',
  'DEFAULT',
]);

/** Quotes every lower-case name of the statements (types and keywords are upper case, literals in single quotes). */
function quoteNames(quote: string, statements: string[]): string[] {
  return statements.map((sql) =>
    sql.replace(/'[^']*'|\b[a-z_][a-z0-9_]*\b/g, (word) => (word.startsWith("'") || KEYWORDS.has(word) ? word : `${quote}${word}${quote}`)),
  );
}

/** Tables the generator serves from the shop schema (event_log has no key). */
export const SHOP_TABLES = [
  'attachment',
  'category',
  'customer',
  'order_line',
  'orders',
  'product',
  'product_supplier',
  'supplier',
  'warehouse_bin',
];

const dialectOf = (db: ScratchDatabase): Dialect => (db.kind === 'sqlite' ? 'sqlite' : db.kind === 'postgres' ? 'postgres' : 'mysql');

/** Creates the shop schema in a scratch database, with plain SQL. */
export async function createShopSchema(db: ScratchDatabase): Promise<void> {
  await runSql(db, shopSchemaSql(dialectOf(db)));
}

/**
 * Runs statements one by one on a scratch database, through its driver (no TypeORM). An item may
 * be a whole script of several statements, trigger and function bodies included (SQLite's exec
 * and PostgreSQL's simple query protocol take one; MySQL/MariaDB as a multi-statement query,
 * which needs no DELIMITER lines).
 */
export async function runSql(db: ScratchDatabase, statements: string[]): Promise<void> {
  const dialect = dialectOf(db);
  if (dialect === 'sqlite') {
    const sqlite = new Database(db.url.slice('sqlite:'.length));
    try {
      for (const sql of statements) sqlite.exec(sql);
    } finally {
      sqlite.close();
    }
  } else if (dialect === 'mysql') {
    const connection = await mysql.createConnection({ uri: db.url, multipleStatements: true });
    try {
      for (const sql of statements) await connection.query(sql);
    } finally {
      await connection.end();
    }
  } else {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      for (const sql of statements) await client.query(sql);
    } finally {
      await client.end();
    }
  }
}
