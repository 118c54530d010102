import { Controller, Get, Query } from '@nestjs/common';
import { AdminEndpoint, AdminOperation, pageOf } from '../admin-api/admin-endpoint.decorator.js';
import { pageWindow, type Page } from '../admin-api/page.js';
import { PageQueryDto } from '../admin-api/page-query.dto.js';
import { ApiSettings } from '../config/api-settings.js';
import { isoTime } from '../common/clock.js';
import { AdminAuditService } from '../admin-api/admin-audit.service.js';

export interface AuditView {
  id: number;
  admin: string;
  action: string;
  target: string;
  detail: Record<string, unknown> | null;
  at: string;
}

/** The audit trail of admin changes, newest first. */
@Controller('admin/v1/audit')
@AdminEndpoint()
export class AdminAuditController {
  constructor(
    private readonly audit: AdminAuditService,
    private readonly settings: ApiSettings,
  ) {}

  @AdminOperation({ summary: 'The audit trail of admin changes, newest first', answer: pageOf('AuditEntry'), role: 'auditor' })
  @Get()
  async list(@Query() query: PageQueryDto): Promise<Page<AuditView>> {
    const { offset, pagesize } = pageWindow(query, this.settings);
    const [entries, total] = await this.audit.list(offset, pagesize);
    const items = entries.map((e) => ({
      id: e.id,
      admin: e.username,
      action: e.action,
      target: e.target,
      detail: e.detail === null ? null : (JSON.parse(e.detail) as Record<string, unknown>),
      at: isoTime(e.at),
    }));
    return { items, offset, pagesize, total };
  }
}
