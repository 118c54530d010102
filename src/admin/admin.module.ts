import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AUDIT_TRAIL } from '../admin-api/audit-trail.js';
import { AdminAccountsController } from './admin-accounts.controller.js';
import { AdminAccountsService } from './admin-accounts.service.js';
import { AdminAuditController } from './admin-audit.controller.js';
import { AdminAuditService } from './admin-audit.service.js';
import { AdminAuthController } from './admin-auth.controller.js';
import { AdminRosterService } from './admin-roster.service.js';
import { AdminSelfController } from './admin-self.controller.js';
import { AdminGuard } from './admin.guard.js';
import { AdminOpenApiController } from './openapi/admin-openapi.controller.js';

/**
 * The admin API's own part: admin accounts (managed under /admin/v1/admins; the signed-in one
 * under /admin/v1/@me) and their sign-in, the admin token guard (global: AppModule places it
 * among the guards) and the audit trail, which the modules whose admin endpoints change things
 * take as `AUDIT_TRAIL`. Those endpoints live in their own modules
 * (users, tokens, roles, provider) and reach nothing here but that token. The admin API's OpenAPI
 * document is built here from all of them (Nest's discovery finds them wherever they are).
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  controllers: [AdminAuthController, AdminSelfController, AdminAccountsController, AdminAuditController, AdminOpenApiController],
  providers: [
    AdminAccountsService,
    AdminRosterService,
    AdminAuditService,
    AdminGuard,
    { provide: AUDIT_TRAIL, useExisting: AdminAuditService },
  ],
  exports: [AdminGuard, AUDIT_TRAIL],
})
export class AdminModule {}
