import { Module } from '@nestjs/common';
import { AdminApiModule } from '../admin-api/admin-api.module.js';
import { SecurityModule } from '../security/security.module.js';
import { USER_TOKENS } from '../users/user-tokens.js';
import { UsersModule } from '../users/users.module.js';
import { TokenPurge } from './token-purge.js';
import { TokensController } from './tokens.controller.js';
import { TokensService } from './tokens.service.js';

/**
 * API tokens: issuing, checking, disabling and purging them, and the admin API's tokens
 * endpoints. A login token follows its user (UsersModule); what the users endpoints need of
 * tokens it offers as `USER_TOKENS` (see UsersAdminModule).
 */
@Module({
  imports: [UsersModule, SecurityModule, AdminApiModule],
  controllers: [TokensController],
  providers: [TokensService, TokenPurge, { provide: USER_TOKENS, useExisting: TokensService }],
  exports: [TokensService, USER_TOKENS],
})
export class TokensModule {}
