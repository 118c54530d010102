import { Body, Controller, Delete, Get, HttpCode, Inject, Param, ParseIntPipe, Post, Query } from '@nestjs/common';
import { AdminEndpoint, AdminOperation, pageOf, schema } from '../admin-api/admin-endpoint.decorator.js';
import { CurrentAdmin } from '../admin-api/admin-principal.js';
import { AUDIT_TRAIL, type AuditTrail } from '../admin-api/audit-trail.js';
import { pageWindow, type Page } from '../admin-api/page.js';
import { PageQueryDto } from '../admin-api/page-query.dto.js';
import { ApiError } from '../common/api-error.js';
import { ApiSettings } from '../config/api-settings.js';
import { ErrorCode } from '../common/error-codes.js';
import { KnownRoles } from '../security/known-roles.js';
import { UsersService } from '../users/users.service.js';
import { CreateTokenDto } from './dto/create-token.dto.js';
import { tokenView, type TokenView } from './token-view.js';
import { TokensService, type FoundToken, type IssueTokenInput } from './tokens.service.js';

/** The admin API's API tokens: hand-made ones created here, login ones listed, both disabled or deleted here. */
@Controller('admin/v1/tokens')
@AdminEndpoint()
export class TokensController {
  constructor(
    private readonly tokens: TokensService,
    private readonly users: UsersService,
    @Inject(AUDIT_TRAIL) private readonly audit: AuditTrail,
    private readonly settings: ApiSettings,
    private readonly knownRoles: KnownRoles,
  ) {}

  @AdminOperation({ summary: 'List API tokens, login-made ones included', answer: pageOf('Token'), role: 'auditor' })
  @Get()
  async list(@Query() query: PageQueryDto): Promise<Page<TokenView>> {
    const { offset, pagesize } = pageWindow(query, this.settings);
    const [tokens, total] = await this.tokens.list(offset, pagesize);
    return { items: tokens.map(({ token, status }) => tokenView(token, status)), offset, pagesize, total };
  }

  /** The key appears in this answer, as `apikey`, and nowhere ever again. */
  @AdminOperation({
    summary: 'Create a token by hand',
    description:
      'Without a key, one is generated. The key is in this answer (apikey) and never again. A chosen key already taken is ' +
      "409 / 4091; a userIdentifier that is a user's login is 400 / 4000.",
    answer: schema('NewToken'),
    errors: [409],
  })
  @Post()
  async create(@Body() body: CreateTokenDto, @CurrentAdmin() admin: string): Promise<TokenView & { apikey: string }> {
    this.knownRoles.assertKnown(body.roles);
    if (body.userIdentifier !== undefined && (await this.users.findByLogin(body.userIdentifier))) {
      throw new ApiError(
        ErrorCode.BAD_REQUEST,
        `userIdentifier "${body.userIdentifier}" is a user's login; a hand-made token's identifier must differ from every user's.`,
      );
    }
    if (body.key !== undefined && (await this.tokens.existsWithKey(body.key))) {
      throw new ApiError(ErrorCode.DUPLICATE_KEY, 'A token with this key already exists; choose another key.');
    }
    const input: IssueTokenInput = {
      key: body.key,
      label: body.label,
      userIdentifier: body.userIdentifier ?? null,
      roles: body.roles ?? [],
      globals: body.globals ?? {},
      expiration: body.expiration ? Date.parse(body.expiration) : null,
      origin: 'manual',
    };
    return this.audit.change(admin, async (tx) => {
      const { token, apikey } = await this.tokens.issue(input, tx);
      const { label, userIdentifier, roles, expiration } = body;
      return {
        result: { ...tokenView(token, this.tokens.status(token)), apikey },
        action: 'token.create',
        target: `token:${token.id}`,
        detail: { label, userIdentifier, roles, expiration, keyChosen: body.key !== undefined },
      };
    });
  }

  @AdminOperation({ summary: 'One token', answer: schema('Token'), errors: [404], role: 'auditor' })
  @Get(':id')
  async get(@Param('id', ParseIntPipe) id: number): Promise<TokenView> {
    const { token, status } = await this.find(id);
    return tokenView(token, status);
  }

  /** Disabling an expired or disabled token changes nothing and still succeeds (spec §3). */
  @AdminOperation({
    summary: 'Disable a token',
    description: 'Also a success on a token already disabled or expired (an expired token stays expired).',
    answer: schema('Token'),
    errors: [404],
  })
  @Post(':id/disable')
  @HttpCode(200)
  async disable(@Param('id', ParseIntPipe) id: number, @CurrentAdmin() admin: string): Promise<TokenView> {
    await this.find(id);
    await this.audit.change(admin, async (tx) => {
      await this.tokens.disable(id, tx);
      return { result: undefined, action: 'token.disable', target: `token:${id}` };
    });
    // Again after the commit: a request in between may have cached the row as it was (see forgetCachedTokens).
    this.tokens.forgetCachedTokens();
    const { token, status } = await this.find(id);
    return tokenView(token, status);
  }

  @AdminOperation({ summary: 'Delete a token', errors: [404] })
  @Delete(':id')
  @HttpCode(204)
  async delete(@Param('id', ParseIntPipe) id: number, @CurrentAdmin() admin: string): Promise<void> {
    await this.find(id);
    await this.audit.change(admin, async (tx) => {
      await this.tokens.delete(id, tx);
      return { result: undefined, action: 'token.delete', target: `token:${id}` };
    });
    this.tokens.forgetCachedTokens();
  }

  private async find(id: number): Promise<FoundToken> {
    const found = await this.tokens.findById(id);
    if (!found) throw new ApiError(ErrorCode.NOT_FOUND, `No token ${id}.`);
    return found;
  }
}
