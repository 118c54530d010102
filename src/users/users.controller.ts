import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { AdminEndpoint, AdminOperation, pageOf, schema } from '../admin-api/admin-endpoint.decorator.js';
import { CurrentAdmin } from '../admin-api/admin-principal.js';
import { AUDIT_TRAIL, type AuditTrail } from '../admin-api/audit-trail.js';
import { pageWindow, type Page } from '../admin-api/page.js';
import { PageQueryDto } from '../admin-api/page-query.dto.js';
import { ApiError } from '../common/api-error.js';
import { ApiSettings } from '../config/api-settings.js';
import { ErrorCode } from '../common/error-codes.js';
import { KnownRoles } from '../security/known-roles.js';
import { CreateUserDto, SetPasswordDto, UpdateUserDto } from './dto/user.dto.js';
import { USER_TOKENS, type UserTokens } from './user-tokens.js';
import { userView, type UserView } from './user-view.js';
import type { User } from './user.entity.js';
import { UsersService } from './users.service.js';
import { PasswordHasher } from '../login/password-hasher.js';

/** The admin API's users of the built-in provider. Password hashes never leave; every change is audited. */
@Controller('admin/v1/users')
@AdminEndpoint()
export class UsersController {
  constructor(
    private readonly users: UsersService,
    @Inject(USER_TOKENS) private readonly tokens: UserTokens,
    @Inject(AUDIT_TRAIL) private readonly audit: AuditTrail,
    private readonly settings: ApiSettings,
    private readonly knownRoles: KnownRoles,
    private readonly hasher: PasswordHasher,
  ) {}

  @AdminOperation({ summary: 'List users of the built-in provider', answer: pageOf('User'), role: 'auditor' })
  @Get()
  async list(@Query() query: PageQueryDto): Promise<Page<UserView>> {
    const { offset, pagesize } = pageWindow(query, this.settings);
    const [users, total] = await this.users.list(offset, pagesize);
    return { items: users.map(userView), offset, pagesize, total };
  }

  @AdminOperation({
    summary: 'Create a user',
    description: 'Roles must be among the project’s; a login taken is 409 / 4091.',
    answer: schema('User'),
    errors: [409],
  })
  @Post()
  async create(@Body() body: CreateUserDto, @CurrentAdmin() admin: string): Promise<UserView> {
    const { password, ...fields } = body;
    this.knownRoles.assertKnown(fields.roles);
    const passwordHash = await this.hasher.hashNewPassword(password);
    return this.audit.change(admin, async (tx) => {
      const user = await this.users.create({ ...fields, roles: fields.roles ?? [], passwordHash }, tx);
      return { result: userView(user), action: 'user.create', target: `user:${user.login}`, detail: { ...fields } };
    });
  }

  @AdminOperation({ summary: 'One user', answer: schema('User'), errors: [404], role: 'auditor' })
  @Get(':login')
  async get(@Param('login') login: string): Promise<UserView> {
    return userView(await this.find(login));
  }

  /**
   * The user's login tokens follow the change at their next use (roles, globals, active).
   * Making a user inactive also disables their tokens, so reactivating them does not revive old tokens.
   */
  @AdminOperation({
    summary: 'Change a user',
    description:
      "The user's login tokens work with the new roles and globals from their next request; active: false also disables " +
      'them. null clears email and keyLifetimeSeconds.',
    answer: schema('User'),
    errors: [404],
  })
  @Patch(':login')
  async update(@Param('login') login: string, @Body() body: UpdateUserDto, @CurrentAdmin() admin: string): Promise<UserView> {
    this.knownRoles.assertKnown(body.roles);
    const user = await this.find(login);
    const view = await this.audit.change(admin, async (tx) => {
      const changes = fieldsOf(body);
      const updated = await this.users.update(user, changes, tx);
      if (body.active === false) await this.tokens.disableForUser(login, tx);
      return { result: userView(updated), action: 'user.update', target: `user:${login}`, detail: changes };
    });
    this.tokens.forgetCachedTokens();
    return view;
  }

  /** An operator's reset disables the user's tokens, as the user's own change does: whoever held the old password is out. */
  @AdminOperation({
    summary: "Reset a user's password",
    description: "The user's tokens are disabled.",
    errors: [404],
  })
  @Put(':login/password')
  @HttpCode(204)
  async setPassword(@Param('login') login: string, @Body() body: SetPasswordDto, @CurrentAdmin() admin: string): Promise<void> {
    const user = await this.find(login);
    const passwordHash = await this.hasher.hashNewPassword(body.password);
    await this.audit.change(admin, async (tx) => {
      await this.users.setPasswordHash(user, passwordHash, tx);
      await this.tokens.disableForUser(login, tx);
      return { result: undefined, action: 'user.password', target: `user:${login}` };
    });
    this.tokens.forgetCachedTokens();
  }

  /** Deleting a user also disables their tokens: a login token must not outlive its user. */
  @AdminOperation({ summary: 'Delete a user', description: "The user's tokens are disabled.", errors: [404] })
  @Delete(':login')
  @HttpCode(204)
  async delete(@Param('login') login: string, @CurrentAdmin() admin: string): Promise<void> {
    const user = await this.find(login);
    await this.audit.change(admin, async (tx) => {
      await this.users.delete(user, tx);
      await this.tokens.disableForUser(login, tx);
      return { result: undefined, action: 'user.delete', target: `user:${login}` };
    });
    this.tokens.forgetCachedTokens();
  }

  private async find(login: string): Promise<User> {
    const user = await this.users.findByLogin(login);
    if (!user) throw new ApiError(ErrorCode.NOT_FOUND, `No user "${login}".`);
    return user;
  }
}

/** The fields a validated body holds, as a plain object (the DTO's own properties: what the client sent). */
function fieldsOf<T extends object>(body: T): Partial<T> {
  return Object.fromEntries(Object.entries(body)) as Partial<T>;
}
