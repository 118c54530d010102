import { describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { readServerVersion } from './connection/server-flavour.js';
import { insertReturnsRow } from './dialect.js';

/** A data source as TypeORM leaves it: `driver.version` holds only the leading digits of the server's version. */
const server = (type: string, version?: string) => ({ options: { type }, driver: { version } }) as unknown as DataSource;

/** One the service opened: it read the server's own version text too (see `readServerVersion`). */
async function opened(type: string, version: string): Promise<DataSource> {
  const dataSource = {
    options: { type },
    driver: { version: /^[\d.]+/.exec(version)?.[0] },
    query: async () => [{ version }],
  } as unknown as DataSource;
  await readServerVersion(dataSource);
  return dataSource;
}

describe('insertReturnsRow', () => {
  it('is true on SQLite and PostgreSQL', () => {
    expect(insertReturnsRow(server('better-sqlite3'))).toBe(true);
    expect(insertReturnsRow(server('postgres', '15.19'))).toBe(true);
  });

  it.each([
    ['10.11.19-MariaDB-0+deb12u1', true],
    ['10.5.0-MariaDB', true],
    ['11.4.2-MariaDB-log', true],
    ['10.4.32-MariaDB', false],
    ['8.0.36', false],
    ['8.4.0-commercial', false],
  ])('on a mysql connection to %s: %s', async (version, expected) => {
    expect(insertReturnsRow(await opened('mysql', version))).toBe(expected);
    expect(insertReturnsRow(await opened('mariadb', version))).toBe(expected);
  });

  it("reads the row back when only TypeORM's digits are known, which never name MariaDB", () => {
    expect(insertReturnsRow(server('mysql', '10.11.19'))).toBe(false);
    expect(insertReturnsRow(server('mysql'))).toBe(false);
  });
});
