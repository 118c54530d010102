import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import type { Principal } from '../common/principal.js';
import { NameLookup } from '../database/name-lookup.js';
import type { NamedEndpoint } from './named-endpoints.js';
import type { Operation } from './role-definition.js';
import type { SecurityService } from './security.service.js';

const METHODS: Record<Operation, string> = { READ: 'GET', INSERT: 'POST', UPDATE: 'PUT', DELETE: 'DELETE' };

/** The project's named endpoints by name (case-insensitively), for RolesGuard: a name no table or custom resource has. */
export class NamedEndpointLookup {
  private readonly byName = new NameLookup<NamedEndpoint>();

  constructor(endpoints: readonly NamedEndpoint[]) {
    for (const endpoint of endpoints) this.byName.set(endpoint.name, endpoint);
  }

  find(name: string): NamedEndpoint | undefined {
    return this.byName.get(name);
  }
}

/**
 * Whether the caller may call a named endpoint this way: a collection URL only (`<base>/<name>`; with a key,
 * 404 / 4040), an operation it answers (otherwise 405 / 4050 with `Allow`, to a caller that may use it), and a
 * grant of its roles for the operation (403 / 4030; see `SecurityService.mayUse`).
 */
export function admitNamedEndpoint(
  security: SecurityService,
  principal: Principal,
  endpoint: NamedEndpoint,
  required: Operation,
  withKey: boolean,
): void {
  if (withKey) throw new ApiError(ErrorCode.NOT_FOUND, `${endpoint.name} is a ${endpoint.kind}: it has no objects by key.`);
  const operations = endpoint.operations ?? ['READ'];
  if (!operations.includes(required)) {
    if (operations.some((operation) => security.mayUse(principal, endpoint, operation))) {
      const allow = operations.map((o) => METHODS[o]).join(', ');
      throw new ApiError(ErrorCode.METHOD_NOT_ALLOWED, `${endpoint.name} is a ${endpoint.kind}: only ${allow}.`, { Allow: allow });
    }
    throw new ApiError(ErrorCode.FORBIDDEN, `Your roles do not permit ${required} on ${endpoint.name}.`);
  }
  if (!security.mayUse(principal, endpoint, required)) {
    throw new ApiError(ErrorCode.FORBIDDEN, `Your roles do not permit ${required} on ${endpoint.name}.`);
  }
}
