import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IS_ADMIN_API } from '../admin-api/admin-endpoint.decorator.js';
import { setAdmin } from '../admin-api/admin-principal.js';
import { ApiError } from '../common/api-error.js';
import { keyFromAuthorizationHeader } from '../http/authorization-header.js';
import { endpointMetadata } from '../common/endpoint-metadata.js';
import { ErrorCode } from '../common/error-codes.js';
import { isPublicEndpoint } from '../common/public.decorator.js';
import { rawRequestOf } from '../common/request-slot.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { AdminAccountsService } from './admin-accounts.service.js';

/**
 * Global guard of the admin API (every `@AdminEndpoint()` controller, whichever module it is
 * in): admin tokens, in the header only, never in a URL. API tokens live in another table and
 * so are unknown here. Resolves the token to the request's admin (user name and role, as the
 * account is now); RolesGuard then checks the role the endpoint needs.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly accounts: AdminAccountsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http' || !endpointMetadata<boolean>(this.reflector, IS_ADMIN_API, context)) return true;
    if (isPublicEndpoint(this.reflector, context, this.config)) return true;
    const request = context.switchToHttp().getRequest<unknown>();
    const apikey = keyFromAuthorizationHeader(rawRequestOf(request).headers.authorization);
    if (!apikey) throw new ApiError(ErrorCode.NO_TOKEN, 'An admin token is required: Authorization: Bearer <key>');
    setAdmin(request, await this.accounts.verify(apikey));
    return true;
  }
}
