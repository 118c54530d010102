import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { whileClientConnected } from '../http/client-abort.js';
import { clientAddressOf } from '../http/client-address.js';
import { Public } from '../common/public.decorator.js';
import { rawRequestOf } from '../common/request-slot.js';
import { queryParamsOf } from '../http/request-context.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { AUTH_PROVIDER, type AuthProvider, type LoginInfo } from '../provider/auth-provider.js';
import { parseAuthRequest } from './auth-request.js';
import { AuthService } from './auth.service.js';
import { providerInfo, type ProviderInfo } from './provider-info.js';

/** Spelled exactly so, trailing "!" included (spec §4.4); matched case-sensitively. */
const PASSWORD_CHANGE_PARAM = 'enablePasswordChange!';

/** `@authentication` (alias `@authenticate`), `@login_info` and `@auth_provider_info/<ident>` under the API base. */
@Controller('rest/:account/:project/:version')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    @Inject(AUTH_PROVIDER) private readonly provider: AuthProvider,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Public()
  @Post(['@authentication', '@authenticate'])
  @HttpCode(200)
  async authenticate(@Body() body: unknown, @Req() request: unknown): Promise<object> {
    const parsed = parseAuthRequest(body, this.provider.kind === 'custom' ? 'any' : 'username-password');
    switch (parsed.kind) {
      case 'revalidate':
        return this.auth.revalidate(parsed.apikey);
      case 'disable':
        return this.auth.disable(parsed.apikey);
      case 'login': {
        const context = {
          clientAddress: clientAddressOf(rawRequestOf(request), this.config.http.trustProxy),
          enablePasswordChange: queryParamsOf(request).has(PASSWORD_CHANGE_PARAM),
        };
        return whileClientConnected(rawRequestOf(request), (clientGone) => this.auth.login(parsed.payload, context, clientGone));
      }
    }
  }

  @Public()
  @Get('@login_info')
  loginInfo(): Promise<LoginInfo> {
    return this.provider.loginInfo();
  }

  /**
   * LAC's `@auth_provider_info/<ident>`: the provider's name and the settings it takes (described, never their values),
   * and its login fields. Any token may ask, as for `@serverinfo`: it tells little more than `@login_info` does.
   */
  @Get('@auth_provider_info/:ident')
  async authProviderInfo(@Param('ident') ident: string, @Query() query: Record<string, unknown>): Promise<ProviderInfo> {
    const unknown = Object.keys(query).filter((name) => name !== 'auth');
    if (unknown.length > 0)
      throw new ApiError(
        ErrorCode.BAD_REQUEST,
        `Unknown query parameter(s) here: ${unknown.map((n) => `"${n.slice(0, 64)}"`).join(', ')}.`,
      );
    const info = await providerInfo(this.provider, ident);
    if (!info)
      throw new ApiError(
        ErrorCode.NOT_FOUND,
        `No such authentication provider: ${ident.slice(0, 100)} (this API has one: 1, or ${this.provider.name}).`,
      );
    return info;
  }
}
