import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiToken } from './api-token.entity.js';
import { TokenPurge } from './token-purge.js';
import { TokensService } from './tokens.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([ApiToken])],
  providers: [TokensService, TokenPurge],
  exports: [TokensService],
})
export class TokensModule {}
