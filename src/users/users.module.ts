import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TesseraMeta } from '../database/tessera-meta.entity.js';
import { User } from './user.entity.js';
import { UsersSeeder } from './users.seeder.js';
import { UsersService } from './users.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([User, TesseraMeta])],
  providers: [UsersService, UsersSeeder],
  exports: [UsersService],
})
export class UsersModule {}
