import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { Database } from './database.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('Database on SQLite', () => {
  let dataSource: DataSource;
  let db: Database;
  const names = (): Promise<string[]> =>
    db.read(async (s) => (await s.query('SELECT name FROM item ORDER BY id')).map((r) => r.name as string));

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await dataSource.query('CREATE TABLE item (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE)');
    db = new Database(dataSource);
  });
  beforeEach(async () => {
    await db.write((s) => s.query('DELETE FROM item'));
  });
  afterAll(async () => {
    await dataSource.destroy();
  });

  it('knows its dialect', () => {
    expect(db.dialect).toBe('sqlite');
    expect(db.insertReturnsRow).toBe(true);
  });

  it('keeps a read out while a transaction is open, so it never sees uncommitted rows', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction((tx) =>
      tx.write(async (s) => {
        await s.query("INSERT INTO item (name) VALUES ('uncommitted')");
        await held;
        throw new Error('rolled back');
      }),
    );
    await tick();
    let seen: string[] | undefined;
    const read = names().then((rows) => (seen = rows));
    await tick();
    expect(seen).toBeUndefined();
    release();
    await expect(transaction).rejects.toThrow('rolled back');
    await read;
    expect(seen).toEqual([]);
  });

  it("runs a transaction scope's statements at once, on the transaction, and commits them together", async () => {
    const count = await db.transaction(async (tx) => {
      await tx.write(({ manager }) => manager.query("INSERT INTO item (name) VALUES ('a')"));
      await tx.write((s) => s.query("INSERT INTO item (name) VALUES ('b')"));
      return tx.read(async (s) => (await s.query('SELECT COUNT(*) AS n FROM item'))[0]!.n);
    });
    expect(count).toBe(2);
    expect(await names()).toEqual(['a', 'b']);
  });

  it('commits a write transaction when its work resolves and rolls it back when it throws', async () => {
    const answer = await db.writeTransaction(async (session) => {
      await session.query("INSERT INTO item (name) VALUES ('kept')");
      return 'done';
    });
    expect(answer).toBe('done');
    await expect(
      db.writeTransaction(async (session) => {
        await session.query("INSERT INTO item (name) VALUES ('lost')");
        await session.query("INSERT INTO item (name) VALUES ('kept')");
      }),
    ).rejects.toThrow(/UNIQUE/);
    expect(await names()).toEqual(['kept']);
  });

  it('queues two write transactions one after the other on the one connection', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = db.writeTransaction(async (session) => {
      order.push('first begins');
      await session.query("INSERT INTO item (name) VALUES ('first')");
      await held;
      order.push('first ends');
    });
    const second = db.writeTransaction(async (session) => {
      order.push('second begins');
      await session.query("INSERT INTO item (name) VALUES ('second')");
    });
    await tick();
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first begins', 'first ends', 'second begins']);
    expect(await names()).toEqual(['first', 'second']);
  });
});
