import { Module } from '@nestjs/common';
import { AdminAuditService } from './admin-audit.service.js';
import { AUDIT_TRAIL } from './audit-trail.js';

/**
 * The admin API's shared services for every module with admin endpoints (users, tokens, admin
 * accounts): the audit trail, as `AUDIT_TRAIL` for those that record changes and as
 * `AdminAuditService` for the audit endpoint that lists them.
 */
@Module({
  providers: [AdminAuditService, { provide: AUDIT_TRAIL, useExisting: AdminAuditService }],
  exports: [AdminAuditService, AUDIT_TRAIL],
})
export class AdminApiModule {}
