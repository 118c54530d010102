import { Module } from '@nestjs/common';
import { LoginModule } from '../login/login.module.js';
import { UsersSeeder } from './users.seeder.js';
import { UsersService } from './users.service.js';

/**
 * Users of the built-in provider: the service (for the default provider, tokens and the users
 * endpoints) and the project's seed users, created on the first start. The admin API's users
 * endpoints are `UsersAdminModule`.
 */
@Module({
  imports: [LoginModule],
  providers: [UsersService, UsersSeeder],
  exports: [UsersService],
})
export class UsersModule {}
