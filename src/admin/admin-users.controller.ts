import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { ApiSettings } from '../common/api-settings.js';
import { ErrorCode } from '../common/error-codes.js';
import { TokensService } from '../tokens/tokens.service.js';
import type { User } from '../users/user.entity.js';
import { UsersService } from '../users/users.service.js';
import { AdminAuditService } from './admin-audit.service.js';
import { AdminEndpoint } from './admin-endpoint.decorator.js';
import { CurrentAdmin } from './admin.guard.js';
import { KnownRoles } from './known-roles.js';
import { pageWindow, userView, type Page, type UserView } from './admin-views.js';
import { PageQueryDto } from './dto/page-query.dto.js';
import { CreateUserDto, SetPasswordDto, UpdateUserDto } from './dto/user.dto.js';

/** Users of the built-in provider. Password hashes never leave; every change is audited. */
@Controller('admin/v1/users')
@AdminEndpoint()
export class AdminUsersController {
  constructor(
    private readonly users: UsersService,
    private readonly tokens: TokensService,
    private readonly audit: AdminAuditService,
    private readonly settings: ApiSettings,
    private readonly knownRoles: KnownRoles,
  ) {}

  @Get()
  async list(@Query() query: PageQueryDto): Promise<Page<UserView>> {
    const { offset, pagesize } = pageWindow(query, this.settings);
    const [users, total] = await this.users.list(offset, pagesize);
    return { items: users.map(userView), offset, pagesize, total };
  }

  @Post()
  async create(@Body() body: CreateUserDto, @CurrentAdmin() admin: string): Promise<UserView> {
    const { password, ...fields } = body;
    this.knownRoles.assertKnown(fields.roles);
    const passwordHash = await this.users.hashNewPassword(password);
    return this.audit.change(admin, async (manager) => {
      const user = await this.users.create({ ...fields, roles: fields.roles ?? [], passwordHash }, manager);
      return { result: userView(user), action: 'user.create', target: `user:${user.login}`, detail: { ...fields } };
    });
  }

  @Get(':login')
  async get(@Param('login') login: string): Promise<UserView> {
    return userView(await this.find(login));
  }

  /**
   * The user's login tokens follow the change at their next use (roles, globals, active).
   * Making a user inactive also disables their tokens, so reactivating them does not revive old tokens.
   */
  @Patch(':login')
  async update(@Param('login') login: string, @Body() body: UpdateUserDto, @CurrentAdmin() admin: string): Promise<UserView> {
    this.knownRoles.assertKnown(body.roles);
    const user = await this.find(login);
    const view = await this.audit.change(admin, async (manager) => {
      const updated = await this.users.update(user, { ...body }, manager);
      if (body.active === false) await this.tokens.disableForUser(login, manager);
      return { result: userView(updated), action: 'user.update', target: `user:${login}`, detail: { ...body } };
    });
    this.tokens.forgetCachedTokens();
    return view;
  }

  /** An operator's reset disables the user's tokens, as the user's own change does: whoever held the old password is out. */
  @Put(':login/password')
  @HttpCode(204)
  async setPassword(@Param('login') login: string, @Body() body: SetPasswordDto, @CurrentAdmin() admin: string): Promise<void> {
    const user = await this.find(login);
    const passwordHash = await this.users.hashNewPassword(body.password);
    await this.audit.change(admin, async (manager) => {
      await this.users.setPasswordHash(user, passwordHash, manager);
      await this.tokens.disableForUser(login, manager);
      return { result: undefined, action: 'user.password', target: `user:${login}` };
    });
    this.tokens.forgetCachedTokens();
  }

  /** Deleting a user also disables their tokens: a login token must not outlive its user. */
  @Delete(':login')
  @HttpCode(204)
  async delete(@Param('login') login: string, @CurrentAdmin() admin: string): Promise<void> {
    const user = await this.find(login);
    await this.audit.change(admin, async (manager) => {
      await this.users.delete(user, manager);
      await this.tokens.disableForUser(login, manager);
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
