import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { AllExceptionsFilter } from './common/all-exceptions.filter.js';
import { ApiScopeGuard } from './common/api-scope.guard.js';
import { ApiSettings, PROJECT_DEFINITION } from './common/api-settings.js';
import { LOGGER } from './common/logger.js';
import type { ProjectDefinition } from './common/project-definition.js';
import type { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseGate } from './database/database-gate.js';
import { ResourcesModule } from './resources/resources.module.js';
import { SystemModule } from './system/system.module.js';

export interface AppModuleOptions {
  config: AppConfig;
  project: ProjectDefinition;
  /** Already connected and migrated (see `openDatabase`). */
  dataSource: DataSource;
  logger: Logger;
}

/** Composes the engine with one API project. */
@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    const settings = new ApiSettings(options.config, options.project);
    return {
      module: AppModule,
      global: true,
      imports: [
        ConfigModule.forRoot(options.config),
        TypeOrmModule.forRootAsync({
          useFactory: () => options.dataSource.options,
          dataSourceFactory: async () => options.dataSource,
        }),
        SystemModule,
        ResourcesModule,
      ],
      providers: [
        { provide: ApiSettings, useValue: settings },
        { provide: PROJECT_DEFINITION, useValue: options.project },
        { provide: LOGGER, useValue: options.logger },
        { provide: DatabaseGate, useValue: DatabaseGate.for(options.dataSource) },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_GUARD, useClass: ApiScopeGuard },
      ],
      exports: [ApiSettings, PROJECT_DEFINITION, LOGGER, DatabaseGate],
    };
  }
}
