import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { principalOf } from '../auth/principal.js';
import { ApiError } from '../common/api-error.js';
import { endpointMetadata } from '../common/endpoint-metadata.js';
import { ErrorCode } from '../common/error-codes.js';
import { isPublicEndpoint } from '../common/public.decorator.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { ResourceRegistry } from '../data/resource-registry.js';
import { REQUIRED_ACCESS } from './requires-access.decorator.js';
import type { Operation } from './role-definition.js';
import { SecurityService } from './security.service.js';

/**
 * Runs after ApiKeyGuard on resource and meta endpoints: 403 / 4030 when none of the
 * token's roles grants the endpoint's operation on the resource (or the meta endpoints).
 * An endpoint the configuration makes public (`@docs` with DOCS_PUBLIC) asks for no roles.
 * Row-level decisions are made where the rows are: in ResourcesService.
 */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly security: SecurityService,
    private readonly registry: ResourceRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const required = endpointMetadata<Operation | 'META'>(this.reflector, REQUIRED_ACCESS, context);
    if (!required || isPublicEndpoint(this.reflector, context, this.config)) return true;
    const request = context.switchToHttp().getRequest<{ params?: Record<string, string> }>();
    const principal = principalOf(request);
    if (!principal) throw new ApiError(ErrorCode.NO_TOKEN, 'An auth token is required.');
    if (required === 'META') {
      if (!this.security.mayUseMeta(principal)) throw new ApiError(ErrorCode.FORBIDDEN, 'Your roles do not permit the meta endpoints.');
      return true;
    }
    const resource = this.registry.find(request.params?.resource ?? '');
    if (!resource) return true; // the controller answers 404 for an unknown resource
    if (!this.security.access(principal, resource).can(required)) {
      throw new ApiError(ErrorCode.FORBIDDEN, `Your roles do not permit ${required} on ${resource.name}.`);
    }
    return true;
  }
}
