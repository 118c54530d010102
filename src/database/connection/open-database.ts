import type { Logger } from 'pino';
import { DataSource, type DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../../config/app-config.js';
import { connectionErrorSink, pgClientReportingErrors, reportMysqlConnectionErrors } from '../errors/connection-errors.js';
import { connectFailureMessage, DatabaseBootError, entityFailureMessage } from '../errors/boot-errors.js';
import { buildDataSourceOptions, type SchemaParts } from './data-source-options.js';
import { schemaMismatchMessage, schemaProblems } from '../schema/schema-check.js';
import { limitMysqlLockWait } from './mysql-lock-timeout.js';
import { typeormLog } from './typeorm-log.js';
import { onEveryMysqlConnection, type MysqlPool } from './mysql-pool.js';
import { readServerVersion } from './server-flavour.js';
import { bindSqliteNumbers } from './sqlite-parameters.js';
import { underBootLock } from '../locks/boot-lock.js';

export { DatabaseBootError };

interface MysqlPoolConnection {
  query(sql: string, callback: (error: unknown) => void): void;
}

function mysqlPoolOf<C>(dataSource: DataSource): MysqlPool<C> | undefined {
  return (dataSource.driver as unknown as { pool?: MysqlPool<C> }).pool;
}

/** MySQL and MariaDB name the statement timeout differently; try MariaDB's, then MySQL's. */
function limitMysqlStatementTime(dataSource: DataSource, timeoutMs: number): void {
  onEveryMysqlConnection(mysqlPoolOf<MysqlPoolConnection>(dataSource), (connection) => {
    connection.query(`SET SESSION max_statement_time = ${(timeoutMs / 1000).toFixed(3)}`, (error) => {
      if (error) connection.query(`SET SESSION max_execution_time = ${Math.trunc(timeoutMs)}`, () => undefined);
    });
  });
}

/**
 * Builds the entities' metadata before connecting (`initialize` builds it again, after its
 * driver connects): an error here is the project's entities, never the connection or the file,
 * and is reported as such (see `entityFailureMessage`).
 */
async function buildEntitiesFirst(database: AppConfig['database'], dataSource: DataSource): Promise<void> {
  try {
    await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
  } catch (error) {
    const listed: unknown[] = Object.values(dataSource.options.entities ?? {});
    const entities = listed.filter((entity): entity is Function => typeof entity === 'function');
    throw new DatabaseBootError(entityFailureMessage(database, entities, error));
  }
}

/**
 * The data source's options from the validated configuration (see `buildDataSourceOptions`), with
 * TypeORM's own messages in `logger` (see `typeormLog`) and PostgreSQL's client reporting
 * connection errors to it. Throws `DatabaseBootError`.
 */
export function dataSourceOptionsFor(database: AppConfig['database'], schema: SchemaParts, logger?: Logger): DataSourceOptions {
  let options: DataSourceOptions;
  try {
    options = buildDataSourceOptions(database, schema);
  } catch (error) {
    throw new DatabaseBootError(connectFailureMessage(database, error, database.acquireTimeoutMs));
  }
  if (logger) options = { ...options, logger: typeormLog(logger) };
  if (options.type !== 'postgres') return options;
  const sink = connectionErrorSink(logger);
  return { ...options, extra: { ...(options.extra as Record<string, unknown>), Client: pgClientReportingErrors(sink) } };
}

/**
 * Connects, applies pending migrations (under the boot lock, see `underBootLock`), checks that the tables match the entities (see
 * `schemaProblems`), and returns the ready data source.
 * Throws `DatabaseBootError` with one clear line (no password) when it cannot.
 */
export async function openDatabase(database: AppConfig['database'], schema: SchemaParts, logger?: Logger): Promise<DataSource> {
  return openDataSource(database, dataSourceOptionsFor(database, schema, logger), logger);
}

/** `openDatabase` on options already made (what `DatabaseModule` hands TypeORM's module). */
export async function openDataSource(database: AppConfig['database'], options: DataSourceOptions, logger?: Logger): Promise<DataSource> {
  const sink = connectionErrorSink(logger);
  const dataSource = new DataSource(options);
  if (database.kind === 'sqlite') bindSqliteNumbers(dataSource);
  await buildEntitiesFirst(database, dataSource);
  try {
    await dataSource.initialize();
    // Which server a mysql:// URL reaches decides whether inserts can use RETURNING (see `insertReturnsRow`).
    if (database.kind === 'mysql' || database.kind === 'mariadb') await readServerVersion(dataSource);
  } catch (error) {
    await dataSource.destroy().catch(() => undefined);
    throw new DatabaseBootError(connectFailureMessage(database, error, database.acquireTimeoutMs));
  }
  if (database.kind === 'mysql' || database.kind === 'mariadb') {
    limitMysqlStatementTime(dataSource, database.statementTimeoutMs);
    reportMysqlConnectionErrors(mysqlPoolOf(dataSource), sink);
    limitMysqlLockWait(mysqlPoolOf(dataSource), database.lockTimeoutMs);
  }
  try {
    // Instances booting at once on one database take turns: the first runs the migrations, the others find them run.
    await underBootLock(
      dataSource,
      'migrations',
      () => dataSource.runMigrations({ transaction: database.kind === 'postgres' || database.kind === 'sqlite' ? 'each' : 'none' }),
      logger,
    );
  } catch (error) {
    await dataSource.destroy().catch(() => undefined);
    throw new DatabaseBootError(`Database migrations failed on ${database.safeUrl}: ${(error as Error).message}`);
  }
  // Before serving: a table or column the entities expect and the database lacks would otherwise
  // surface as a driver error at the first request that touches it.
  const problems = await schemaProblems(dataSource);
  if (problems.length > 0) {
    await dataSource.destroy().catch(() => undefined);
    throw new DatabaseBootError(schemaMismatchMessage(database.safeUrl, problems));
  }
  return dataSource;
}
