import { Module } from '@nestjs/common';
import { TokenPurge } from './token-purge.js';
import { TokensService } from './tokens.service.js';

@Module({
  providers: [TokensService, TokenPurge],
  exports: [TokensService],
})
export class TokensModule {}
