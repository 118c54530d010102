/**
 * TypeORM CLI entry (npm run migration:generate|run|revert). It uses the same options as
 * the service, from the same validated configuration; MigrationsDataSource makes a revert on
 * SQLite safe for tables others refer to, and a MariaDB server behind a mysql:// URL is
 * addressed as MariaDB, so migration:generate reads its schema right.
 */
import 'reflect-metadata';
import { configFromEnvironment } from './src/config/read-environment.js';
import { buildDataSourceOptions } from './src/database/connection/data-source-options.js';
import { MigrationsDataSource } from './src/database/migrations/migrations-data-source.js';
import { asTheServerIs } from './src/database/connection/server-flavour.js';
import { project } from './src/project/project.js';
import { schemaOf } from './src/schema.js';

export default new MigrationsDataSource(
  buildDataSourceOptions(
    await asTheServerIs(configFromEnvironment().database, configFromEnvironment().database.acquireTimeoutMs),
    schemaOf(project),
  ),
);
