import { describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { insertReturnsRow } from './dialect.js';

const server = (type: string, version?: string) => ({ options: { type }, driver: { version } }) as unknown as DataSource;

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
    [undefined, false],
  ])('on a mysql connection to %s: %s', (version, expected) => {
    expect(insertReturnsRow(server('mysql', version))).toBe(expected);
    expect(insertReturnsRow(server('mariadb', version))).toBe(expected);
  });
});
