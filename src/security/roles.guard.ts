import { Inject, Injectable, Optional, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IS_ADMIN_API, REQUIRED_ADMIN_ROLE } from '../admin-api/admin-endpoint.decorator.js';
import { adminOf, type AdminRole } from '../admin-api/admin-principal.js';
import { ApiError } from '../common/api-error.js';
import { endpointMetadata } from '../common/endpoint-metadata.js';
import { ErrorCode } from '../common/error-codes.js';
import { principalOf, type Principal } from '../common/principal.js';
import { rawRequestOf } from '../common/request-slot.js';
import { isPublicEndpoint } from '../common/public.decorator.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { ResourceRegistry } from '../data/resource-registry.js';
import { setCallerAccess, setCallerGrants } from './caller-access.decorator.js';
import { REQUIRED_ACCESS } from './requires-access.decorator.js';
import { readOnlyViewError } from './read-only-view.js';
import { ResourcePaths } from './resource-paths.js';
import { EXTENSION_ROUTES, ExtensionRoutes, extensionMethodOf, setExtensionDemand, type ExtensionDemand } from './extension-routes.js';
import type { Operation } from './role-definition.js';
import { SecurityService } from './security.service.js';

/** What each admin role may open: an auditor reads, an admin does everything. */
const ADMIN_RANK: Record<AdminRole, number> = { auditor: 0, admin: 1 };

/** A role's rank; below every endpoint's for a name that is not a role (`toString` is not inherited here). */
function rankOf(role: string): number {
  return Object.hasOwn(ADMIN_RANK, role) ? ADMIN_RANK[role as AdminRole] : -1;
}

/**
 * Global guard, after the token guards (ApiKeyGuard, AdminGuard), deciding by role what the
 * authenticated caller may do:
 * - resource endpoints (`@RequiresAccess(operation)`): an unknown resource is 404 / 4040; a
 *   token none of whose roles grants the operation on the resource is 403 / 4030; a write on a view
 *   (read-only) is 405 / 4050 for a token that may read it. A custom
 *   resource's level (`Customers`, `Customers.Orders`, see `ResourcePaths`) is judged by the
 *   grants on its table, and the access is to that table. The access
 *   computed here is handed to the handler (`@CallerAccess()`), which makes the row-level
 *   decisions where the rows are;
 * - meta endpoints (`@RequiresAccess('META')`): 403 / 4030 without a role with meta access;
 * - the API root's writes (`@RequiresAccess('EACH_OBJECT')`): a token is required; the caller's grants
 *   on every resource are handed to the handler (`@CallerGrantsOf()`), whose writer judges each object
 *   on the resource it names;
 * - admin endpoints: 403 / 4030 when the admin's role is below the endpoint's (`admin` unless
 *   `@AdminRoleRequired('auditor')` says otherwise).
 * An endpoint the configuration makes public (`@docs` with DOCS_PUBLIC) asks for no roles.
 */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly security: SecurityService,
    private readonly registry: ResourceRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() private readonly paths?: ResourcePaths,
    @Optional() private readonly extensions?: ExtensionRoutes,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http' || isPublicEndpoint(this.reflector, context, this.config)) return true;
    if (endpointMetadata<boolean>(this.reflector, IS_ADMIN_API, context)) return this.admitAdmin(context);
    const required = endpointMetadata<Operation | 'META' | 'EACH_OBJECT' | 'EXTENSION'>(this.reflector, REQUIRED_ACCESS, context);
    if (!required) return true;
    const request = context.switchToHttp().getRequest<{ params?: Record<string, string> }>();
    const principal = principalOf(request);
    if (!principal) throw new ApiError(ErrorCode.NO_TOKEN, 'An auth token is required.');
    if (required === 'META') {
      if (!this.security.mayUseMeta(principal)) throw new ApiError(ErrorCode.FORBIDDEN, 'Your roles do not permit the meta endpoints.');
      return true;
    }
    if (required === 'EACH_OBJECT') {
      // The API root: no resource in the URL; the writer judges each object on the resource it names.
      setCallerGrants(request, { to: (resource) => this.security.access(principal, resource) });
      return true;
    }
    // An extension the project declares by this route: a function, function resource, SQL resource or procedure.
    const demand = this.extensions?.demandOf(request);
    if (demand && endpointMetadata<boolean>(this.reflector, EXTENSION_ROUTES, context))
      return this.admitExtension(request, principal, demand);
    // A route only an extension answers (POST `<table>/<key>/<name>`, ...): anything else there is no endpoint.
    if (required === 'EXTENSION') throw new ApiError(ErrorCode.NOT_FOUND, 'No such resource or endpoint.');
    // A table first (the common case costs one lookup), then a custom resource's level, whose table's grants apply.
    const name = request.params?.resource ?? '';
    const resource = this.registry.find(name) ?? this.paths?.tableOf(name, request.params?.version) ?? this.registry.get(name);
    const access = this.security.access(principal, resource);
    if (!access.can(required)) {
      // A view is read-only for everyone: a caller who may read it is told so (what @docs says too); one who may not gets the usual 403.
      if (resource.view && required !== 'READ' && access.can('READ')) {
        throw readOnlyViewError(resource);
      }
      throw new ApiError(ErrorCode.FORBIDDEN, `Your roles do not permit ${required} on ${access.resource.name}.`);
    }
    setCallerAccess(request, access);
    return true;
  }

  /**
   * Any extension, one way: a function resource, SQL resource or procedure by its named grant; a table's function
   * by the grant on its table (the handler gets that access) and the function's own `roles`. A method it does not
   * answer is 405 / 4050 with `Allow` to a caller its roles let use it some way, 403 / 4030 to any other (who is
   * told nothing of what it answers).
   */
  private admitExtension(request: unknown, principal: Principal, demand: ExtensionDemand): boolean {
    const asked = extensionMethodOf(rawRequestOf(request).method);
    const access = demand.table ? this.security.access(principal, demand.table) : undefined;
    const permits = (operation: Operation): boolean => {
      if (demand.roles && !principal.roleNames.some((role) => demand.roles!.includes(role))) return false;
      if (demand.endpoint) return this.security.mayUse(principal, demand.endpoint, operation);
      return access ? access.can(operation) : true;
    };
    const forbidden = (operation: string): ApiError =>
      new ApiError(ErrorCode.FORBIDDEN, `Your roles do not permit ${operation} on the ${demand.label}.`);
    if (!demand.methods.includes(asked)) {
      if (!demand.operations.some(permits)) throw forbidden(asked);
      throw new ApiError(ErrorCode.METHOD_NOT_ALLOWED, `The ${demand.label} answers ${demand.methods.join(', ')} only.`, {
        Allow: demand.methods.join(', '),
      });
    }
    if (!permits(demand.operation)) throw forbidden(demand.operation);
    if (access) setCallerAccess(request, access);
    setExtensionDemand(request, demand);
    return true;
  }

  private admitAdmin(context: ExecutionContext): boolean {
    const admin = adminOf(context.switchToHttp().getRequest());
    if (!admin) throw new ApiError(ErrorCode.NO_TOKEN, 'An admin token is required: Authorization: Bearer <key>');
    const required = endpointMetadata<AdminRole>(this.reflector, REQUIRED_ADMIN_ROLE, context) ?? 'admin';
    if (rankOf(admin.role) < ADMIN_RANK[required]) {
      throw new ApiError(ErrorCode.FORBIDDEN, `This needs an admin account with the role "${required}"; yours is "${admin.role}".`);
    }
    return true;
  }
}
