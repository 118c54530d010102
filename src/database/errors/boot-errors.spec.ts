import { parseDatabaseUrl } from '../../config/database-url.js';
import { connectFailureMessage } from './boot-errors.js';

describe('boot connection messages', () => {
  const mysql = parseDatabaseUrl('mysql://shop:s3cret@db.example.com/shop');
  const postgres = parseDatabaseUrl('postgres://shop:s3cret@10.0.0.5:6432/Shop-Data');

  it.each([
    [
      mysql,
      { code: 'ER_BAD_DB_ERROR', errno: 1049 },
      'Database "shop" does not exist on db.example.com:3306. Create it: CREATE DATABASE shop CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;',
    ],
    [postgres, { code: '3D000' }, 'Database "Shop-Data" does not exist on 10.0.0.5:6432. Create it: CREATE DATABASE "Shop-Data";'],
    [
      mysql,
      { code: 'ER_ACCESS_DENIED_ERROR', errno: 1045 },
      /^Access denied to database "shop" on db\.example\.com:3306 for user "shop"\./,
    ],
    [postgres, { code: '28P01' }, /^Access denied to database "Shop-Data" on 10\.0\.0\.5:6432 for user "shop"\./],
    [
      postgres,
      { code: 'ECONNREFUSED' },
      /^Cannot reach the database server at 10\.0\.0\.5:6432 \(database "Shop-Data"\): the connection was refused\./,
    ],
    [mysql, { code: 'ETIMEDOUT' }, /no answer within 5000 ms \(DB_ACQUIRE_TIMEOUT_MS\)/],
    [postgres, new Error('timeout exceeded when trying to connect'), /no answer within 5000 ms/],
    [mysql, Object.assign(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]), {}), /the connection was refused/],
  ])('%#: names host, port and database with the fix, never the password', (target, error, expected) => {
    const message = connectFailureMessage(target, error, 5000);
    expect(message).toMatch(typeof expected === 'string' ? new RegExp(`^${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : expected);
    expect(message).not.toContain('s3cret');
  });
});
