import { Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from 'pino';
import { Clock } from './common/clock.js';
import type { AppConfig } from './config/app-config.js';
import { ApiSettings } from './config/api-settings.js';
import { ConfigModule } from './config/config.module.js';
import { Database } from './database/database.js';
import { DatabaseModule } from './database/database.module.js';
import { BootNotes } from './observability/boot-notes.js';
import { LOGGER } from './observability/logger.js';
import { Metrics, NO_METRICS } from './observability/metrics.js';
import { PrometheusMetrics } from './observability/prometheus-metrics.js';
import type { ProjectDefinition } from './project-definition.js';
import { ProjectModule } from './project.module.js';
import { schemaOf } from './schema.js';

/** What the application is built from: the validated configuration, the team's project and the logger. */
export interface AppParts {
  config: AppConfig;
  project: ProjectDefinition;
  logger: Logger;
}

/**
 * What every module uses, and so the one global module besides the configuration: the
 * database (DatabaseModule), the project's parts (ProjectModule), the API settings, the logger,
 * metrics, boot notes and the clock. Every other module imports what it uses. Tests replace the
 * clock with `overrideProvider(Clock)`.
 */
@Module({})
export class CoreModule {
  static forRoot(parts: AppParts): DynamicModule {
    const { config, project, logger } = parts;
    return {
      module: CoreModule,
      global: true,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot({ database: config.database, schema: schemaOf(project), logger }),
        ProjectModule.forRoot(project),
      ],
      providers: [
        { provide: ApiSettings, useValue: new ApiSettings(config, project) },
        { provide: LOGGER, useValue: logger },
        // What is counted for /metrics: nothing unless METRICS_ENABLED, so requests pay nothing for it.
        {
          provide: Metrics,
          useFactory: (database: Database) => (config.metrics.enabled ? new PrometheusMetrics(() => database.poolUsage()) : NO_METRICS),
          inject: [Database],
        },
        BootNotes,
        Clock,
      ],
      exports: [DatabaseModule, ProjectModule, ApiSettings, LOGGER, Metrics, BootNotes, Clock],
    };
  }
}
