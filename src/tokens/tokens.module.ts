import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiToken } from './api-token.entity.js';
import { TokensService } from './tokens.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([ApiToken])],
  providers: [TokensService],
  exports: [TokensService],
})
export class TokensModule {}
