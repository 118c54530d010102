import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IS_ADMIN_API } from '../common/admin-api.decorator.js';
import { ApiError } from '../common/api-error.js';
import { ApiSettings } from '../common/api-settings.js';
import { ErrorCode } from '../common/error-codes.js';
import { IS_PUBLIC } from '../common/public.decorator.js';
import { rawRequestOf } from '../common/request-context.js';
import { TokensService } from '../tokens/tokens.service.js';
import { setPrincipal } from './principal.js';
import { apiKeyOfRequest } from './request-api-key.js';

/**
 * Global guard (after ApiScopeGuard): every endpoint needs a valid API token unless it is
 * `@Public()` or part of the admin API (which has its own guard). Resolves the token to the
 * request's `Principal`.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly settings: ApiSettings,
    private readonly tokens: TokensService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) || this.reflector.getAllAndOverride<boolean>(IS_ADMIN_API, targets)) {
      return true;
    }
    const request = context.switchToHttp().getRequest<unknown>();
    const apikey = apiKeyOfRequest(rawRequestOf(request), this.settings.permitAuthInUrl);
    if (!apikey) {
      throw new ApiError(ErrorCode.NO_TOKEN, 'An auth token is required: Authorization: CALiveAPICreator <key>:1');
    }
    const token = await this.tokens.verify(apikey);
    setPrincipal(request, {
      tokenId: token.id,
      userIdentifier: token.userIdentifier,
      roleNames: token.roles,
      globals: token.globals,
    });
    return true;
  }
}
