import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IS_ADMIN_API } from '../admin-api/admin-endpoint.decorator.js';
import { ApiError } from '../common/api-error.js';
import { ApiSettings } from '../config/api-settings.js';
import { endpointMetadata } from '../common/endpoint-metadata.js';
import { ErrorCode } from '../common/error-codes.js';
import { isPublicEndpoint } from '../common/public.decorator.js';
import { rawRequestOf } from '../common/request-slot.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { TokensService } from '../tokens/tokens.service.js';
import { setPrincipal } from '../common/principal.js';
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
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (isPublicEndpoint(this.reflector, context, this.config) || endpointMetadata<boolean>(this.reflector, IS_ADMIN_API, context)) {
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
