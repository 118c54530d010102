import type { Logger as Pino } from 'pino';
import type { Logger } from 'typeorm';

/**
 * TypeORM's messages through the service's logger. Its default logger writes migration and slow
 * query lines to the console whatever `logging` says: plain text among the JSON log lines, and in
 * the test output a "Migration … failed" for a boot a suite expects to fail (which the boot's own
 * error reports anyway). Here migrations are logged at info, slow queries at warn (without their
 * parameters: they may hold a caller's values), and the rest at debug. Query errors are not
 * logged here: Tessera maps each to an answer or a boot error and logs it there.
 */
export function typeormLog(logger: Pino): Logger {
  return {
    logQuery: () => undefined,
    logQueryError: () => undefined,
    logQuerySlow: (time, query) => logger.warn({ durationMs: time, query }, 'slow query'),
    logSchemaBuild: (message) => logger.debug({ typeorm: 'schema' }, message),
    logMigration: (message) => logger.info({ typeorm: 'migration' }, message),
    log: (_level, message: unknown) => logger.debug({ typeorm: 'log' }, String(message)),
  };
}
