import { apiErrorFromDatabase, isDatabaseUnavailable, isRetryableConflict } from './database-errors.js';

describe('database error mapping', () => {
  it.each([
    [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }],
    [{ code: '57P01', message: 'terminating connection due to administrator command' }],
    [{ code: '55000', message: 'database "x" is not currently accepting connections' }],
    [{ message: 'Connection terminated unexpectedly' }],
    [{ code: 'PROTOCOL_CONNECTION_LOST', message: 'Connection lost: The server closed the connection.' }],
    // a Galera node that is not part of the primary component (cut off, or still joining)
    [{ code: 'ER_UNKNOWN_COM_ERROR', errno: 1047, message: 'WSREP has not yet prepared node for application use' }],
  ])('treats %o as the database being unavailable (503 / 5030)', (error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(apiErrorFromDatabase(error)?.errorCode).toBe(5030);
  });

  it.each([
    [{ code: 'ER_DUP_ENTRY', errno: 1062, message: "Duplicate entry 'x' for key 'PRIMARY'" }, 4091],
    [{ code: '23505', message: 'duplicate key value violates unique constraint' }, 4091],
    [{ code: 'SQLITE_CONSTRAINT_PRIMARYKEY', message: 'UNIQUE constraint failed' }, 4091],
    [{ code: 'ER_NO_REFERENCED_ROW_2', message: 'a foreign key constraint fails' }, 4221],
    [{ code: '23503', message: 'violates foreign key constraint' }, 4221],
    [{ code: 'SQLITE_CONSTRAINT_NOTNULL', message: 'NOT NULL constraint failed' }, 4221],
    [{ code: 'ER_LOCK_DEADLOCK', errno: 1213, message: 'Deadlock found' }, 4093],
    [{ code: '40P01', message: 'deadlock detected' }, 4093],
    [{ code: '55P03', message: 'canceling statement due to lock timeout' }, 4093],
    [{ code: '22003', message: 'value "3000000000" is out of range for type integer' }, 4000],
    [{ code: 'ER_WARN_DATA_OUT_OF_RANGE', errno: 1264, message: "Out of range value for column 'qty_ordered' at row 1" }, 4000],
  ])('maps %o to %i without the driver text', (error, code) => {
    const mapped = apiErrorFromDatabase({ driverError: error, message: error.message });
    expect(mapped?.errorCode).toBe(code);
    expect(mapped?.message).not.toContain(error.message);
  });

  it.each([
    [{ code: 'ER_LOCK_DEADLOCK', errno: 1213 }],
    [{ errno: 1213 }],
    [{ code: 'ER_LOCK_WAIT_TIMEOUT', errno: 1205 }],
    [{ code: '40P01' }],
    [{ code: '40001' }],
    [{ code: '55P03' }],
    [{ code: 'SQLITE_BUSY' }],
    [{ code: 'SQLITE_BUSY_SNAPSHOT' }],
  ])('treats %o as a conflict worth retrying, answered 409 / 4093 with Retry-After when not retried', (error) => {
    expect(isRetryableConflict({ driverError: error, message: 'x' })).toBe(true);
    const mapped = apiErrorFromDatabase({ driverError: error, message: 'x' });
    expect(mapped?.errorCode).toBe(4093);
    expect(mapped?.headers['Retry-After']).toBe('1');
  });

  it.each([
    [{ code: 'ER_DUP_ENTRY', errno: 1062 }],
    [{ code: '23505' }],
    [{ code: '57P01' }],
    [{ code: 'ECONNRESET' }],
    [{ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }],
  ])('does not retry %o: another attempt would fail alike, or might repeat a commit', (error) => {
    expect(isRetryableConflict({ driverError: error, message: 'x' })).toBe(false);
  });

  it('treats a query runner released under the transaction (its connection died) as the database being unavailable', () => {
    const released = Object.assign(new Error('Query runner already released. Cannot run queries anymore.'), {
      name: 'QueryRunnerAlreadyReleasedError',
    });
    expect(apiErrorFromDatabase(released)?.errorCode).toBe(5030);
  });

  it('leaves an unknown command (1047 without WSREP) to the caller', () => {
    expect(isDatabaseUnavailable({ code: 'ER_UNKNOWN_COM_ERROR', errno: 1047, message: 'Unknown command' })).toBe(false);
  });

  it('leaves other errors to the caller', () => {
    expect(apiErrorFromDatabase(new Error('something else'))).toBeUndefined();
    expect(apiErrorFromDatabase({ code: '55000', message: 'sequence not yet defined in this session' })).toBeUndefined();
  });
});
