/**
 * TypeORM CLI entry (npm run migration:generate|run|revert). It uses the same options as
 * the service, from the same validated configuration.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { configFromEnvironment } from './src/config/read-environment.js';
import { buildDataSourceOptions } from './src/database/data-source-options.js';
import { project } from './src/project/project.js';
import { schemaOf } from './src/schema.js';

export default new DataSource(buildDataSourceOptions(configFromEnvironment().database, schemaOf(project)));
