import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { rawRequestOf } from '../common/request-slot.js';
import type { Resource } from '../data/resource-registry.js';
import type { ResourceAccess } from './resource-access.js';
import { extensionDemandOf } from './extension-routes.js';

const ACCESS = Symbol('tesseraCallerAccess');
const GRANTS = Symbol('tesseraCallerGrants');

type WithAccess = { [ACCESS]?: ResourceAccess; [GRANTS]?: CallerGrants };

/** The caller's access to any resource of the project (a `ResourceAccess` is one: `to` gives its principal's access to another). */
export interface CallerGrants {
  to(resource: Resource): ResourceAccess;
}

/** Attaches what the caller may do on the request's resource (RolesGuard, once per request). */
export function setCallerAccess(request: unknown, access: ResourceAccess): void {
  (rawRequestOf(request) as WithAccess)[ACCESS] = access;
}

/** The caller's access RolesGuard attached (a table's request, or a function of a table); undefined when it attached none. */
export function callerAccessOf(request: unknown): ResourceAccess | undefined {
  return (rawRequestOf(request) as WithAccess)[ACCESS];
}

/**
 * The caller's access to the endpoint's `:resource`, as RolesGuard computed it (the resource
 * is `access.resource`): `insert(@CallerAccess() access: ResourceAccess)`. Only on endpoints
 * marked `@RequiresAccess` with an operation.
 */
export const CallerAccess = createParamDecorator((_data: unknown, context: ExecutionContext): ResourceAccess => {
  const request = context.switchToHttp().getRequest<unknown>();
  const access = (rawRequestOf(request) as WithAccess)[ACCESS];
  // A request RolesGuard admitted to an extension that is not a table's (a function resource, a SQL resource, a
  // procedure) has no table access: its handler hands it to the extension before using this.
  if (!access && extensionDemandOf(request)) return undefined as unknown as ResourceAccess;
  if (!access) throw new Error('@CallerAccess() on an endpoint RolesGuard did not judge (add @RequiresAccess)');
  return access;
});

/** Attaches the caller's grants on every resource, for an endpoint whose objects name their own (RolesGuard). */
export function setCallerGrants(request: unknown, grants: CallerGrants): void {
  (rawRequestOf(request) as WithAccess)[GRANTS] = grants;
}

/**
 * The caller's grants, resource by resource, on an endpoint marked `@RequiresAccess('EACH_OBJECT')`
 * (the API root, whose objects name their resources): each object is judged on its own resource.
 */
export const CallerGrantsOf = createParamDecorator((_data: unknown, context: ExecutionContext): CallerGrants => {
  const grants = (rawRequestOf(context.switchToHttp().getRequest()) as WithAccess)[GRANTS];
  if (!grants) throw new Error("@CallerGrantsOf() on an endpoint RolesGuard did not judge (add @RequiresAccess('EACH_OBJECT'))");
  return grants;
});
