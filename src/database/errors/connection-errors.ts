import type pg from 'pg';
import type { Logger } from 'pino';
import { pgPackage } from '../connection/driver-packages.js';
import { onEveryMysqlConnection, type MysqlPool } from '../connection/mysql-pool.js';

/** Where a pooled connection's own errors go: a warning with the driver's code, never the URL. */
export type ConnectionErrorSink = (error: unknown) => void;

export function connectionErrorSink(logger: Logger | undefined): ConnectionErrorSink {
  return (error) => {
    const { code, message } = error as { code?: unknown; message?: unknown };
    logger?.warn({ code, reason: typeof message === 'string' ? message : undefined }, 'A database connection failed; the pool replaces it');
  };
}

/**
 * A pg client class with an 'error' listener from birth to end. pg-pool removes its idle
 * listener when it hands a client out and TypeORM adds its own a tick later (and removes it on
 * release), so a backend terminated in between (failover, pg_terminate_backend) emitted 'error'
 * with nobody listening, which crashed the process. The query that was running still fails and
 * is answered 503; the pool drops the client, whose `_queryable` is then false.
 */
export function pgClientReportingErrors(sink: ConnectionErrorSink): typeof pg.Client {
  return class ReportingClient extends pgPackage().Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      this.on('error', sink);
    }
  };
}

type ErrorEmitter = { on(event: 'error', fn: ConnectionErrorSink): void };

/**
 * mysql2's pool connections listen for 'error' only once (to leave the pool): a second error
 * on a dying connection would have nobody listening. Every connection gets a permanent listener.
 */
export function reportMysqlConnectionErrors(pool: MysqlPool<ErrorEmitter> | undefined, sink: ConnectionErrorSink): void {
  onEveryMysqlConnection(pool, (connection) => connection.on('error', sink));
}
