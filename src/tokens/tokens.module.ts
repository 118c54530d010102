import { Global, Module } from '@nestjs/common';
import { USER_TOKENS } from '../users/user-tokens.js';
import { TokenPurge } from './token-purge.js';
import { TokensController } from './tokens.controller.js';
import { TokensService } from './tokens.service.js';

/**
 * API tokens: issuing, checking, disabling and purging them, and the admin API's tokens
 * endpoints. Global, since it also offers the users module what it needs of tokens
 * (`USER_TOKENS`) without the users module importing it.
 */
@Global()
@Module({
  controllers: [TokensController],
  providers: [TokensService, TokenPurge, { provide: USER_TOKENS, useExisting: TokensService }],
  exports: [TokensService, USER_TOKENS],
})
export class TokensModule {}
