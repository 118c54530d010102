import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { UsersModule } from '../users/users.module.js';
import { AUTH_PROVIDER } from './auth-provider.js';
import { DefaultAuthProvider } from './default.provider.js';
import { NoneAuthProvider } from './none.provider.js';
import { selectProvider } from './select-provider.js';

/** Supplies the configured `AuthProvider` under the `AUTH_PROVIDER` token. */
@Module({
  imports: [UsersModule],
  providers: [
    DefaultAuthProvider,
    NoneAuthProvider,
    {
      provide: AUTH_PROVIDER,
      inject: [APP_CONFIG, DefaultAuthProvider, NoneAuthProvider],
      useFactory: (config: AppConfig, defaultProvider: DefaultAuthProvider, none: NoneAuthProvider) =>
        selectProvider(config.auth.provider, [defaultProvider, none]),
    },
  ],
  exports: [AUTH_PROVIDER],
})
export class ProviderModule {}
