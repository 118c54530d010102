import { Module, type DynamicModule } from '@nestjs/common';
import { SEED_USERS, type SeedUser } from './seed-user.js';
import { UsersController } from './users.controller.js';
import { UsersSeeder } from './users.seeder.js';
import { UsersService } from './users.service.js';

/**
 * Users of the built-in provider: the service, the project's seed users, and the admin API's
 * users endpoints. Global: the providers, tokens and auth modules use `UsersService`.
 */
@Module({})
export class UsersModule {
  static forRoot(project: { seedUsers?: readonly SeedUser[] }): DynamicModule {
    return {
      module: UsersModule,
      global: true,
      controllers: [UsersController],
      providers: [UsersService, UsersSeeder, { provide: SEED_USERS, useValue: project.seedUsers ?? [] }],
      exports: [UsersService],
    };
  }
}
