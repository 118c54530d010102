import { Module, type DynamicModule, type ModuleMetadata } from '@nestjs/common';
import { AdminApiModule } from '../admin-api/admin-api.module.js';
import { LoginModule } from '../login/login.module.js';
import { SecurityModule } from '../security/security.module.js';
import { UsersController } from './users.controller.js';
import { UsersModule } from './users.module.js';

/**
 * The admin API's users endpoints. Changing a user disables its login tokens in the same
 * transaction (`USER_TOKENS`), which the tokens module provides; tokens follow their users and
 * import the users module, so the root hands the tokens module in here
 * (`UsersAdminModule.register({ imports: [TokensModule] })`) instead of a cycle between the two.
 */
@Module({})
export class UsersAdminModule {
  static register(ports: { imports: NonNullable<ModuleMetadata['imports']> }): DynamicModule {
    return {
      module: UsersAdminModule,
      imports: [UsersModule, SecurityModule, LoginModule, AdminApiModule, ...ports.imports],
      controllers: [UsersController],
    };
  }
}
