import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { DataSource, type MigrationInterface } from 'typeorm';
import { capturedLog } from '../../../test/support/captured-log.js';
import { typeormLog } from './typeorm-log.js';

class Works1700000000000 implements MigrationInterface {
  async up(): Promise<void> {}
  async down(): Promise<void> {}
}

class Breaks1700000001000 implements MigrationInterface {
  up(): Promise<void> {
    return Promise.reject(new Error('the table exists already'));
  }
  async down(): Promise<void> {}
}

describe('typeormLog', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it("puts TypeORM's migration lines in the service's log, none on the console", async () => {
    const console = jest.spyOn(globalThis.console, 'log').mockImplementation(() => undefined);
    const log = capturedLog('info');
    const dataSource = await new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      migrations: [Works1700000000000, Breaks1700000001000],
      logger: typeormLog(log.logger),
    }).initialize();
    try {
      await expect(dataSource.runMigrations()).rejects.toThrow('the table exists already');
    } finally {
      await dataSource.destroy();
    }
    expect(console).not.toHaveBeenCalled();
    const migrations = log.records().filter((record) => record.typeorm === 'migration');
    expect(migrations.map((record) => record.msg)).toContainEqual(
      expect.stringContaining('Migration "Breaks1700000001000" failed, error: the table exists already'),
    );
    expect(migrations.every((record) => record.level === 30)).toBe(true);
  });
});
