import { Module } from '@nestjs/common';
import { LoginModule } from '../login/login.module.js';
import { ProviderModule } from '../provider/provider.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { ApiKeyGuard } from './api-key.guard.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';

/** `@authentication` and the API's token guard. AppModule registers `ApiKeyGuard` as a global guard. */
@Module({
  imports: [TokensModule, ProviderModule, LoginModule],
  controllers: [AuthController],
  providers: [AuthService, ApiKeyGuard],
  exports: [ApiKeyGuard],
})
export class AuthModule {}
