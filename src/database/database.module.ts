import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import type { SchemaParts } from './connection/data-source-options.js';
import { Database } from './database.js';
import { dataSourceOptionsFor, openDataSource } from './connection/open-database.js';

export interface DatabaseModuleOptions {
  database: AppConfig['database'];
  /** The entities and migrations of Tessera and of the project (see `schemaOf`). */
  schema: SchemaParts;
  logger: Logger;
}

/**
 * The connection, the Nest way: `TypeOrmModule.forRootAsync` provides the DataSource (and closes
 * it when the application closes), its options made from the validated configuration
 * (`dataSourceOptionsFor`, as `ormconfig.ts` makes the TypeORM CLI's), and Tessera's own set-up in
 * its `dataSourceFactory` (`openDataSource`: SQLite pragmas, the MariaDB lock and statement
 * timeouts, migrations under the boot lock, the schema check). A boot error is one
 * `DatabaseBootError`, never retried. The `Database` facade is built on the injected DataSource
 * and is the only way to the database for every other module.
 */
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({ ...dataSourceOptionsFor(options.database, options.schema, options.logger), toRetry: () => false }),
          dataSourceFactory: (dataSourceOptions?: DataSourceOptions) =>
            openDataSource(
              options.database,
              dataSourceOptions ?? dataSourceOptionsFor(options.database, options.schema, options.logger),
              options.logger,
            ),
        }),
      ],
      providers: [Database],
      exports: [Database],
    };
  }
}
