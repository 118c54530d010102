import { Module } from '@nestjs/common';
import { ProviderModule } from '../provider/provider.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { UsersModule } from '../users/users.module.js';
import { AdminAccountsService } from './admin-accounts.service.js';
import { AdminAuditController } from './admin-audit.controller.js';
import { AdminAuditService } from './admin-audit.service.js';
import { AdminAuthController } from './admin-auth.controller.js';
import { AdminProviderController } from './admin-provider.controller.js';
import { AdminTokensController } from './admin-tokens.controller.js';
import { AdminUsersController } from './admin-users.controller.js';
import { AdminGuard } from './admin.guard.js';
import { AdminRolesController } from './admin-roles.controller.js';
import { KnownRoles } from './known-roles.js';

/** The admin API under /admin/v1: operators' accounts and tokens, users, API tokens, audit trail, roles, the auth provider. */
@Module({
  imports: [UsersModule, TokensModule, ProviderModule],
  controllers: [AdminAuthController, AdminUsersController, AdminTokensController, AdminAuditController, AdminRolesController, AdminProviderController],
  providers: [AdminAccountsService, AdminAuditService, AdminGuard, KnownRoles],
})
export class AdminModule {}
