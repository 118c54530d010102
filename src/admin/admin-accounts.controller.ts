import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { AdminEndpoint, AdminOperation, pageOf, schema } from '../admin-api/admin-endpoint.decorator.js';
import { CurrentAdmin } from '../admin-api/admin-principal.js';
import { AUDIT_TRAIL, type AuditTrail } from '../admin-api/audit-trail.js';
import { pageWindow, type Page } from '../admin-api/page.js';
import { PageQueryDto } from '../admin-api/page-query.dto.js';
import { ApiSettings } from '../config/api-settings.js';
import { adminAccountView, type AdminAccountView } from './admin-account-view.js';
import { AdminRosterService } from './admin-roster.service.js';
import { CreateAdminDto, SetAdminPasswordDto, SetAdminRoleDto } from './dto/admin-account.dto.js';
import { PasswordHasher } from '../login/password-hasher.js';

/**
 * The admin API's own accounts: auditors may list and read them, admins manage them. Every
 * change is audited; the last account with the role `admin` can be neither demoted nor
 * deleted (409 / 4094). Password hashes never leave.
 */
@Controller('admin/v1/admins')
@AdminEndpoint()
export class AdminAccountsController {
  constructor(
    private readonly roster: AdminRosterService,
    @Inject(AUDIT_TRAIL) private readonly audit: AuditTrail,
    private readonly settings: ApiSettings,
    private readonly hasher: PasswordHasher,
  ) {}

  @AdminOperation({ summary: 'List admin accounts', answer: pageOf('AdminAccount'), role: 'auditor' })
  @Get()
  async list(@Query() query: PageQueryDto): Promise<Page<AdminAccountView>> {
    const { offset, pagesize } = pageWindow(query, this.settings);
    const [accounts, total] = await this.roster.list(offset, pagesize);
    return { items: accounts.map(adminAccountView), offset, pagesize, total };
  }

  @AdminOperation({
    summary: 'Create an admin account',
    description: 'A user name taken in any case is 409 / 4091.',
    answer: schema('AdminAccount'),
    errors: [409],
  })
  @Post()
  async create(@Body() body: CreateAdminDto, @CurrentAdmin() admin: string): Promise<AdminAccountView> {
    const { username, password, role } = body;
    // Checked again in the transaction; here so that a taken name costs no bcrypt work.
    await this.roster.assertNameFree(username);
    const passwordHash = await this.hasher.hashNewPassword(password);
    return this.audit.change(admin, async (tx) => {
      const account = await this.roster.create({ username, passwordHash, role }, tx);
      return { result: adminAccountView(account), action: 'admin.create', target: `admin:${username}`, detail: { role } };
    });
  }

  @AdminOperation({ summary: 'One admin account', answer: schema('AdminAccount'), errors: [404], role: 'auditor' })
  @Get(':username')
  async get(@Param('username') username: string): Promise<AdminAccountView> {
    return adminAccountView(await this.roster.get(username));
  }

  /** The account's tokens keep working, with the new role from their next request. */
  @AdminOperation({
    summary: "Change an admin account's role",
    description: 'Its tokens keep working, with the new role. The last admin cannot be demoted (409 / 4094).',
    answer: schema('AdminAccount'),
    errors: [404, 409],
  })
  @Patch(':username')
  async setRole(
    @Param('username') username: string,
    @Body() body: SetAdminRoleDto,
    @CurrentAdmin() admin: string,
  ): Promise<AdminAccountView> {
    return this.audit.change(admin, async (tx) => {
      const { account, previous } = await this.roster.setRole(username, body.role, tx);
      return {
        result: adminAccountView(account),
        action: 'admin.role',
        target: `admin:${username}`,
        detail: { role: body.role, previous },
      };
    });
  }

  /** An operator's reset ends every token of the account (the caller's own too, when it resets itself). */
  @AdminOperation({
    summary: "Reset an admin account's password",
    description: "Every token of the account ends (the caller's own too, when it resets itself).",
    errors: [404],
  })
  @Put(':username/password')
  @HttpCode(204)
  async resetPassword(
    @Param('username') username: string,
    @Body() body: SetAdminPasswordDto,
    @CurrentAdmin() admin: string,
  ): Promise<void> {
    await this.roster.get(username);
    const passwordHash = await this.hasher.hashNewPassword(body.password);
    await this.audit.change(admin, async (tx) => {
      await this.roster.resetPassword(username, passwordHash, tx);
      return { result: undefined, action: 'admin.password', target: `admin:${username}` };
    });
  }

  /** Deleting an account ends its tokens. */
  @AdminOperation({
    summary: 'Delete an admin account',
    description: 'Its tokens end at once. The last admin cannot be deleted (409 / 4094).',
    errors: [404, 409],
  })
  @Delete(':username')
  @HttpCode(204)
  async delete(@Param('username') username: string, @CurrentAdmin() admin: string): Promise<void> {
    await this.audit.change(admin, async (tx) => {
      await this.roster.delete(username, tx);
      return { result: undefined, action: 'admin.delete', target: `admin:${username}` };
    });
  }
}
