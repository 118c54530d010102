import { Module } from '@nestjs/common';
import { UsersSeeder } from './users.seeder.js';
import { UsersService } from './users.service.js';

@Module({
  providers: [UsersService, UsersSeeder],
  exports: [UsersService],
})
export class UsersModule {}
