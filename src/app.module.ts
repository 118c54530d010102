import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import type { Logger } from 'pino';
import { AdminGuard } from './admin/admin.guard.js';
import { AdminModule } from './admin/admin.module.js';
import { ApiKeyGuard } from './auth/api-key.guard.js';
import { AuthModule } from './auth/auth.module.js';
import { AllExceptionsFilter } from './http/all-exceptions.filter.js';
import { ApiScopeGuard } from './http/api-scope.guard.js';
import { ApiSettings } from './config/api-settings.js';
import { BootNotes } from './observability/boot-notes.js';
import { Clock } from './common/clock.js';
import { LOGGER } from './observability/logger.js';
import { Metrics, NO_METRICS } from './observability/metrics.js';
import { PrometheusMetrics } from './observability/prometheus-metrics.js';
import type { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DataModule } from './data/data.module.js';
import { Database } from './database/database.js';
import { DatabaseModule } from './database/database.module.js';
import { LogicModule } from './logic/logic.module.js';
import { LoginThrottle } from './login/login-throttle.js';
import { PasswordHasher } from './login/password-hasher.js';
import type { ProjectDefinition } from './project-definition.js';
import { schemaOf } from './schema.js';
import { CustomResourcesModule } from './resources/custom/custom-resources.module.js';
import { ResourcesModule } from './resources/resources.module.js';
import { RolesGuard } from './security/roles.guard.js';
import { SecurityModule } from './security/security.module.js';
import { SystemModule } from './system/system.module.js';
import { TokensModule } from './tokens/tokens.module.js';
import { UsersModule } from './users/users.module.js';

export interface AppModuleOptions {
  config: AppConfig;
  project: ProjectDefinition;
  logger: Logger;
}

/**
 * The composition root: composes the engine with one API project. Each module takes the part
 * of the project it needs (`forRoot(project)`); what every module shares (configuration,
 * settings, logger, clock, the database, bcrypt and the login throttle) is provided here. The
 * database comes from `DatabaseModule` (TypeORM's module, see there); tests replace the clock
 * with `overrideProvider(Clock)`.
 */
@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    const settings = new ApiSettings(options.config, options.project);
    return {
      module: AppModule,
      global: true,
      imports: [
        ConfigModule.forRoot(options.config),
        DatabaseModule.forRoot({ database: options.config.database, schema: schemaOf(options.project), logger: options.logger }),
        DataModule.forRoot(options.project),
        SecurityModule.forRoot(options.project),
        LogicModule.forRoot(options.project),
        CustomResourcesModule.forRoot(options.project),
        UsersModule.forRoot(options.project),
        TokensModule,
        SystemModule,
        AuthModule,
        AdminModule,
        // Last: its `:resource` routes must not shadow the `@…` system endpoints on Express.
        ResourcesModule,
      ],
      providers: [
        { provide: ApiSettings, useValue: settings },
        { provide: LOGGER, useValue: options.logger },
        // What is counted for /metrics: nothing unless METRICS_ENABLED, so requests pay nothing for it.
        {
          provide: Metrics,
          useFactory: (database: Database) =>
            options.config.metrics.enabled ? new PrometheusMetrics(() => database.poolUsage()) : NO_METRICS,
          inject: [Database],
        },
        BootNotes,
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        Clock,
        PasswordHasher,
        LoginThrottle,
        // Global guards run in this order: an unknown API is a 404 before any token is asked for,
        // and roles are judged once the token (an API token, or an admin token) is known.
        { provide: APP_GUARD, useClass: ApiScopeGuard },
        { provide: APP_GUARD, useExisting: ApiKeyGuard },
        { provide: APP_GUARD, useExisting: AdminGuard },
        { provide: APP_GUARD, useExisting: RolesGuard },
      ],
      exports: [ApiSettings, LOGGER, Metrics, BootNotes, DatabaseModule, Clock, PasswordHasher, LoginThrottle],
    };
  }
}
