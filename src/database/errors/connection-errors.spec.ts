import { EventEmitter } from 'node:events';
import { capturedLog } from '../../../test/support/captured-log.js';
import { connectionErrorSink, pgClientReportingErrors, reportMysqlConnectionErrors } from './connection-errors.js';

const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

describe('connection errors', () => {
  it('gives every pg client a listener from birth: an error emitted before anyone else listens does not throw', () => {
    const seen: unknown[] = [];
    const Client = pgClientReportingErrors((error) => seen.push(error));
    const client = new Client({ connectionString: 'postgres://user:secret@127.0.0.1:1/db' });
    expect(() => client.emit('error', terminated)).not.toThrow();
    expect(seen).toEqual([terminated]);
  });

  it('logs a warning with the driver code and reason, never the connection string', () => {
    const log = capturedLog('warn');
    const Client = pgClientReportingErrors(connectionErrorSink(log.logger));
    new Client({ connectionString: 'postgres://user:secret@127.0.0.1:1/db' }).emit('error', terminated);
    expect(log.records()).toEqual([expect.objectContaining({ level: 40, code: '57P01', reason: terminated.message })]);
    expect(log.text()).not.toContain('secret');
  });

  it('keeps listening on a MySQL pool connection after its first error (mysql2 listens once)', () => {
    const pool = new EventEmitter();
    const seen: unknown[] = [];
    reportMysqlConnectionErrors(pool, (error) => seen.push(error));
    const connection = new EventEmitter();
    connection.once('error', () => undefined); // what mysql2's PoolConnection does
    pool.emit('connection', connection);
    connection.emit('error', terminated);
    expect(() => connection.emit('error', terminated)).not.toThrow();
    expect(seen).toHaveLength(2);
  });

  it('listens on the MySQL connections the pool already holds, too', () => {
    const open = new EventEmitter();
    const pool = Object.assign(new EventEmitter(), { _allConnections: { toArray: () => [open] } });
    const seen: unknown[] = [];
    reportMysqlConnectionErrors(pool, (error) => seen.push(error));
    expect(() => open.emit('error', terminated)).not.toThrow();
    expect(seen).toEqual([terminated]);
  });
});
