import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '../observability/logger.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { UsersModule } from '../users/users.module.js';
import { AUTH_PROVIDER } from './auth-provider.js';
import { DefaultAuthProvider } from './default.provider.js';
import { NoneAuthProvider } from './none.provider.js';
import { ProviderController } from './provider.controller.js';
import { selectProvider } from './select-provider.js';

/**
 * Supplies the configured `AuthProvider` under the `AUTH_PROVIDER` token: a built-in one, or
 * a custom module from the providers folder, loaded and checked once while the app boots;
 * and the admin API's view of it.
 */
@Module({
  imports: [UsersModule],
  controllers: [ProviderController],
  providers: [
    DefaultAuthProvider,
    NoneAuthProvider,
    {
      provide: AUTH_PROVIDER,
      inject: [APP_CONFIG, LOGGER, DefaultAuthProvider, NoneAuthProvider],
      useFactory: (config: AppConfig, logger: Logger, defaultProvider: DefaultAuthProvider, none: NoneAuthProvider) =>
        selectProvider(config.auth, [defaultProvider, none], logger),
    },
  ],
  exports: [AUTH_PROVIDER],
})
export class ProviderModule {}
