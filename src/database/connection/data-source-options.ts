import type { DataSourceOptions, MixedList } from 'typeorm';
import type { AppConfig } from '../../config/app-config.js';
import { prepareSqliteFile } from './sqlite-file.js';

/** The tables a data source knows: entities and the migrations that make them (see `schemaOf`). */
export interface SchemaParts {
  entities: Function[];
  migrations: MixedList<Function>;
}

/**
 * The one data-source options object, used by the application and by `ormconfig.ts`
 * (the TypeORM CLI). `synchronize` is always off: the schema comes from migrations.
 */
export function buildDataSourceOptions(database: AppConfig['database'], schema: SchemaParts): DataSourceOptions {
  const common = {
    entities: schema.entities,
    migrations: schema.migrations,
    migrationsTableName: 'tessera_migrations',
    synchronize: false,
    logging: false,
  };

  switch (database.kind) {
    case 'sqlite': {
      const path = database.sqlitePath!;
      prepareSqliteFile(path);
      return {
        ...common,
        type: 'better-sqlite3',
        database: path,
        enableWAL: true,
        timeout: database.acquireTimeoutMs,
        prepareDatabase: (db: { pragma(sql: string): unknown }) => {
          db.pragma('foreign_keys = ON');
          db.pragma(`busy_timeout = ${Math.trunc(database.acquireTimeoutMs)}`);
          db.pragma('synchronous = NORMAL');
        },
      };
    }
    case 'mysql':
    case 'mariadb':
      return {
        ...common,
        type: database.kind,
        url: database.url.replace(/^mariadb:/, 'mysql:'),
        poolSize: database.poolSize,
        connectTimeout: database.acquireTimeoutMs,
        charset: 'utf8mb4_unicode_ci',
        timezone: 'Z',
        supportBigNumbers: true,
        bigNumberStrings: true,
        dateStrings: false,
        // mysql2 captures a stack trace for every query (its `trace` option) to decorate errors
        // with the caller's frames: about a tenth of a rule-heavy insert's CPU time. Tessera
        // never shows driver stacks, and its own logs name the request.
        extra: { trace: false },
      };
    case 'postgres':
      return {
        ...common,
        type: 'postgres',
        url: database.url,
        poolSize: database.poolSize,
        connectTimeoutMS: database.acquireTimeoutMs,
        extra: {
          statement_timeout: database.statementTimeoutMs,
          idle_in_transaction_session_timeout: database.statementTimeoutMs,
          lock_timeout: database.lockTimeoutMs,
          connectionTimeoutMillis: database.acquireTimeoutMs,
        },
      };
  }
}
