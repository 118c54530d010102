import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { DataSource, QueryFailedError } from 'typeorm';
import { sqliteConnectionOf } from './connection/sqlite-connection.js';
import { beginWriteSession } from './write-session.js';

describe('beginWriteSession on SQLite', () => {
  let dataSource: DataSource;
  const names = async () => (await dataSource.query<Array<{ name: string }>>('SELECT name FROM item ORDER BY id')).map((r) => r.name);

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await dataSource.query('CREATE TABLE item (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE)');
  });
  beforeEach(async () => {
    await dataSource.query('DELETE FROM item');
    await dataSource.query("INSERT INTO item (name) VALUES ('kept')");
  });
  afterAll(async () => {
    await dataSource.destroy();
  });

  it('commits every statement together and answers as TypeORM does (RETURNING rows, affected counts)', async () => {
    const session = await beginWriteSession(dataSource);
    const inserted = (await session.query('INSERT INTO item (name) VALUES (?) RETURNING id, name', ['new'], true)) as {
      records: unknown[];
    };
    expect(inserted.records).toEqual([{ id: expect.any(Number), name: 'new' }]);
    const updated = (await session.query('UPDATE item SET name = ? WHERE name = ?', ['renamed', 'kept'], true)) as { affected: number };
    expect(updated.affected).toBe(1);
    expect(await session.query('SELECT name FROM item WHERE name = ?', ['renamed'])).toEqual([{ name: 'renamed' }]);
    await session.commit();
    expect(sqliteConnectionOf(dataSource).inTransaction).toBe(false);
    expect(await names()).toEqual(['renamed', 'new']);
  });

  it('abandons: nothing of the transaction stays, and the connection is free for the next one', async () => {
    const session = await beginWriteSession(dataSource);
    await session.query("INSERT INTO item (name) VALUES ('dropped')");
    await session.abandon();
    expect(sqliteConnectionOf(dataSource).inTransaction).toBe(false);
    expect(await names()).toEqual(['kept']);
    const next = await beginWriteSession(dataSource);
    await next.commit();
  });

  it('fails a statement with a QueryFailedError around the driver error; abandon then rolls back the rest', async () => {
    const session = await beginWriteSession(dataSource);
    await session.query("INSERT INTO item (name) VALUES ('first')");
    const failure = await session.query("INSERT INTO item (name) VALUES ('kept')").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(QueryFailedError);
    expect((failure as QueryFailedError).driverError).toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
    await session.abandon();
    await session.abandon();
    expect(await names()).toEqual(['kept']);
  });
});
