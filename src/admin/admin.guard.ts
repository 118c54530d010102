import { createParamDecorator, Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../common/api-error.js';
import { keyFromAuthorizationHeader } from '../common/authorization-header.js';
import { ErrorCode } from '../common/error-codes.js';
import { isPublicEndpoint } from '../common/public.decorator.js';
import { rawRequestOf } from '../common/request-context.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { AdminAccountsService } from './admin-accounts.service.js';

const ADMIN = Symbol('tesseraAdmin');

type WithAdmin = { [ADMIN]?: string };

/**
 * Guards the admin API with admin tokens (header only: never in a URL). API tokens live in
 * another table and so are unknown here.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly accounts: AdminAccountsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (isPublicEndpoint(this.reflector, context, this.config)) return true;
    const raw = rawRequestOf(context.switchToHttp().getRequest());
    const apikey = keyFromAuthorizationHeader(raw.headers.authorization);
    if (!apikey) throw new ApiError(ErrorCode.NO_TOKEN, 'An admin token is required: Authorization: Bearer <key>');
    (raw as WithAdmin)[ADMIN] = await this.accounts.verify(apikey);
    return true;
  }
}

/** The admin account behind the request's admin token, for the audit trail. */
export const CurrentAdmin = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string => (rawRequestOf(context.switchToHttp().getRequest()) as WithAdmin)[ADMIN]!,
);
