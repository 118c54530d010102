import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { rawRequestOf } from '../common/request-slot.js';
import type { ResourceAccess } from './resource-access.js';

const ACCESS = Symbol('tesseraCallerAccess');

type WithAccess = { [ACCESS]?: ResourceAccess };

/** Attaches what the caller may do on the request's resource (RolesGuard, once per request). */
export function setCallerAccess(request: unknown, access: ResourceAccess): void {
  (rawRequestOf(request) as WithAccess)[ACCESS] = access;
}

/**
 * The caller's access to the endpoint's `:resource`, as RolesGuard computed it (the resource
 * is `access.resource`): `insert(@CallerAccess() access: ResourceAccess)`. Only on endpoints
 * marked `@RequiresAccess` with an operation.
 */
export const CallerAccess = createParamDecorator((_data: unknown, context: ExecutionContext): ResourceAccess => {
  const access = (rawRequestOf(context.switchToHttp().getRequest()) as WithAccess)[ACCESS];
  if (!access) throw new Error('@CallerAccess() on an endpoint RolesGuard did not judge (add @RequiresAccess)');
  return access;
});
