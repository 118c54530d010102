import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DataSource, QueryFailedError } from 'typeorm';
import { loneReads } from './lone-reads.js';

describe('loneReads on SQLite', () => {
  let dataSource: DataSource;
  let prepare: jest.SpiedFunction<(sql: string) => unknown>;

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await dataSource.query('CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, active INTEGER)');
    await dataSource.query("INSERT INTO item (id, name, active) VALUES (1, 'one', 1), (2, 'two', 0), (3, 'three', 1)");
    const connection = (dataSource.driver as unknown as { databaseConnection: { prepare(sql: string): unknown } }).databaseConnection;
    prepare = jest.spyOn(connection, 'prepare');
  });
  afterAll(async () => {
    await dataSource.destroy();
  });

  it('answers the rows TypeORM answers, booleans bound as 0/1 alike', async () => {
    const read = loneReads(dataSource);
    const sql = 'SELECT id, name FROM item WHERE active = ? ORDER BY id';
    expect(await read(sql, [true])).toEqual(await dataSource.query(sql, [true]));
    expect(await read(sql, [true])).toEqual([
      { id: 1, name: 'one' },
      { id: 3, name: 'three' },
    ]);
  });

  it('prepares each SQL text once, for every reader on the connection', async () => {
    const sql = 'SELECT name FROM item WHERE id = ?';
    prepare.mockClear();
    await loneReads(dataSource)(sql, [1]);
    await loneReads(dataSource)(sql, [2]);
    expect(await loneReads(dataSource)(sql, [3])).toEqual([{ name: 'three' }]);
    expect(prepare.mock.calls.filter(([text]) => text === sql)).toHaveLength(1);
  });

  it('keeps a bounded number of statements: the oldest is prepared again after 200 others', async () => {
    const read = loneReads(dataSource);
    const first = 'SELECT id FROM item WHERE id = ?';
    await read(first, [1]);
    for (let i = 0; i < 200; i++) await read(`SELECT id FROM item WHERE id = ? AND ${i} = ${i}`, [1]);
    prepare.mockClear();
    await read(first, [1]);
    expect(prepare).toHaveBeenCalledTimes(1);
  });

  it('takes the SQLite path even when made before the data source is initialised', async () => {
    const early = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    const read = loneReads(early);
    await early.initialize();
    try {
      const connection = (early.driver as unknown as { databaseConnection: { prepare(sql: string): unknown } }).databaseConnection;
      const prepared = jest.spyOn(connection, 'prepare');
      const throughTypeorm = jest.spyOn(early, 'query');
      expect(await read('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      expect(prepared).toHaveBeenCalledWith('SELECT 1 AS one');
      expect(throughTypeorm).not.toHaveBeenCalled();
    } finally {
      await early.destroy();
    }
  });

  it('fails as TypeORM does, with a QueryFailedError around the driver error', async () => {
    const read = loneReads(dataSource);
    const failure = await read('SELECT * FROM no_such_table').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(QueryFailedError);
    expect((failure as QueryFailedError).driverError).toMatchObject({ code: 'SQLITE_ERROR' });
  });
});
