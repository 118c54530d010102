import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import type { Logger } from 'pino';
import { AdminModule } from './admin/admin.module.js';
import { ApiKeyGuard } from './auth/api-key.guard.js';
import { AuthModule } from './auth/auth.module.js';
import { AllExceptionsFilter } from './common/all-exceptions.filter.js';
import { ApiScopeGuard } from './common/api-scope.guard.js';
import { ApiSettings, PROJECT_DEFINITION } from './common/api-settings.js';
import { Clock } from './common/clock.js';
import { LOGGER } from './common/logger.js';
import { LoginThrottle } from './common/login-throttle.js';
import { PasswordHasher } from './common/password-hasher.js';
import type { ProjectDefinition } from './common/project-definition.js';
import type { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { Database } from './database/database.js';
import { ResourcesModule } from './resources/resources.module.js';
import { SystemModule } from './system/system.module.js';

export interface AppModuleOptions {
  config: AppConfig;
  project: ProjectDefinition;
  /** The one way to the database, already connected and migrated (see `openDatabase`). */
  database: Database;
  logger: Logger;
  /** The service's time; tests pass one they can move forward. */
  clock?: Clock;
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
        SystemModule,
        AuthModule,
        AdminModule,
        // Last: its `:resource` routes must not shadow the `@…` system endpoints on Express.
        ResourcesModule,
      ],
      providers: [
        { provide: ApiSettings, useValue: settings },
        { provide: PROJECT_DEFINITION, useValue: options.project },
        { provide: LOGGER, useValue: options.logger },
        { provide: Database, useValue: options.database },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: Clock, useValue: options.clock ?? new Clock() },
        PasswordHasher,
        LoginThrottle,
        // Global guards run in this order: an unknown API is a 404 before any token is asked for.
        { provide: APP_GUARD, useClass: ApiScopeGuard },
        { provide: APP_GUARD, useExisting: ApiKeyGuard },
      ],
      exports: [ApiSettings, PROJECT_DEFINITION, LOGGER, Database, Clock, PasswordHasher, LoginThrottle],
    };
  }
}
