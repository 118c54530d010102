import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { ApiSettings } from '../config/api-settings.js';
import { ErrorCode } from '../common/error-codes.js';

/**
 * Answers 404 / 4040 for an account, project or version this service does not serve,
 * before any other guard (so an unknown API never asks for a token).
 */
@Injectable()
export class ApiScopeGuard implements CanActivate {
  constructor(private readonly settings: ApiSettings) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const params = context.switchToHttp().getRequest<{ params?: Record<string, string> }>().params ?? {};
    const { account, project, version } = params;
    if (account === undefined && project === undefined && version === undefined) return true;
    if (!this.settings.serves(account ?? '', project ?? '', version ?? '')) {
      throw new ApiError(ErrorCode.NOT_FOUND, 'No such API: check the account, project and version in the URL.');
    }
    return true;
  }
}
