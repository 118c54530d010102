import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AdminApiModule } from '../admin-api/admin-api.module.js';
import { LoginModule } from '../login/login.module.js';
import { AdminAccountsController } from './admin-accounts.controller.js';
import { AdminAccountsService } from './admin-accounts.service.js';
import { AdminAuditController } from './admin-audit.controller.js';
import { AdminAuthController } from './admin-auth.controller.js';
import { AdminRosterService } from './admin-roster.service.js';
import { AdminSelfController } from './admin-self.controller.js';
import { AdminGuard } from './admin.guard.js';
import { AdminOpenApiController } from './openapi/admin-openapi.controller.js';

/**
 * The admin API's own part: admin accounts (managed under /admin/v1/admins; the signed-in one
 * under /admin/v1/@me) and their sign-in, the admin token guard (AppModule places it among the
 * global guards) and the audit endpoint. The admin endpoints of users, tokens, roles and the
 * provider live in their own modules and share only src/admin-api/ (the audit trail) with this
 * one. The admin API's OpenAPI document is built here from all of them (Nest's discovery finds
 * them wherever they are).
 */
@Module({
  imports: [DiscoveryModule, AdminApiModule, LoginModule],
  controllers: [AdminAuthController, AdminSelfController, AdminAccountsController, AdminAuditController, AdminOpenApiController],
  providers: [AdminAccountsService, AdminRosterService, AdminGuard],
  exports: [AdminGuard],
})
export class AdminModule {}
