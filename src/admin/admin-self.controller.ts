import { Body, Controller, Get, HttpCode, Inject, Put, Req } from '@nestjs/common';
import { AdminEndpoint, AdminOperation, AdminRoleRequired, schema } from '../admin-api/admin-endpoint.decorator.js';
import { adminOf, type AdminRole } from '../admin-api/admin-principal.js';
import { AUDIT_TRAIL, type AuditTrail } from '../admin-api/audit-trail.js';
import { whileClientConnected } from '../http/client-abort.js';
import { clientAddressOf } from '../http/client-address.js';
import { rawRequestOf } from '../common/request-slot.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { AdminAccountsService } from './admin-accounts.service.js';
import { AdminRosterService } from './admin-roster.service.js';
import { ChangeOwnPasswordDto } from './dto/admin-account.dto.js';

/** The signed-in admin, whatever its role: who it is, and its own password. */
@Controller('admin/v1/@me')
@AdminEndpoint()
@AdminRoleRequired('auditor')
export class AdminSelfController {
  constructor(
    private readonly accounts: AdminAccountsService,
    private readonly roster: AdminRosterService,
    @Inject(AUDIT_TRAIL) private readonly audit: AuditTrail,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The role as the account has it now (an operator may have changed it since the login). */
  @AdminOperation({ summary: 'The signed-in admin', answer: schema('AdminSelf') })
  @Get()
  me(@Req() request: unknown): { username: string; role: AdminRole } {
    const { username, role } = adminOf(request)!;
    return { username, role };
  }

  /**
   * `{password, newPassword}` → 204. The current password is checked like a login (throttled
   * with the account's logins; wrong: 401 / 4013). The token this request came with keeps
   * working; the account's other tokens end, as an API user's do after a password change:
   * whoever held the old password is out.
   */
  @AdminOperation({
    summary: "Change one's own password",
    description:
      'The current password is checked like a sign-in (wrong: 401 / 4013, throttled: 429 / 4290). The token of this ' +
      "request keeps working; the account's other tokens end.",
    errors: [429],
  })
  @Put('password')
  @HttpCode(204)
  async changePassword(@Body() body: ChangeOwnPasswordDto, @Req() request: unknown): Promise<void> {
    const { username, tokenId } = adminOf(request)!;
    const raw = rawRequestOf(request);
    const address = clientAddressOf(raw, this.config.http.trustProxy);
    const { checkedHash, passwordHash } = await whileClientConnected(raw, (gone) =>
      this.accounts.hashOwnNewPassword(username, body.password, body.newPassword, { address, gone }),
    );
    await this.audit.change(username, async (tx) => {
      await this.roster.changeOwnPassword({ username, checkedHash, passwordHash, keepTokenId: tokenId }, tx);
      return { result: undefined, action: 'admin.password', target: `admin:${username}`, detail: { own: true } };
    });
  }
}
