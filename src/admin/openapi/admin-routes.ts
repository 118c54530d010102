import { ParseIntPipe, RequestMethod, type Type } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PARAMTYPES_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { ADMIN_OPERATION, IS_ADMIN_API, REQUIRED_ADMIN_ROLE, type AdminOperationNotes } from '../../admin-api/admin-endpoint.decorator.js';
import type { AdminRole } from '../../admin-api/admin-principal.js';
import { IS_PUBLIC } from '../../common/public.decorator.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** One endpoint of the admin API, as Nest's route metadata and the admin decorators describe it. */
export interface AdminRoute {
  method: HttpMethod;
  /** In OpenAPI's form: `/admin/v1/users/{login}`. */
  path: string;
  /** `<Controller>.<handler>`: unique, and stable while the code is. */
  operationId: string;
  /** The status of a success: `@HttpCode`, else 201 for POST and 200 otherwise (Nest's defaults). */
  status: number;
  /** No admin token needed (`@Public()`). */
  isPublic: boolean;
  /** The least admin role the endpoint needs (`@AdminRoleRequired`; `admin` unless it says otherwise). */
  role: AdminRole;
  /** The class-validator DTO of `@Body()`. */
  body?: Type;
  /** The class-validator DTO of `@Query()`. */
  query?: Type;
  /** `@Param()`s in path order; integer when parsed with ParseIntPipe. */
  pathParams: Array<{ name: string; integer: boolean }>;
  /** What `@AdminOperation` says of it (summary, answer, errors); undefined where the handler has none. */
  notes?: AdminOperationNotes;
}

const METHODS: Partial<Record<RequestMethod, HttpMethod>> = {
  [RequestMethod.GET]: 'get',
  [RequestMethod.POST]: 'post',
  [RequestMethod.PUT]: 'put',
  [RequestMethod.PATCH]: 'patch',
  [RequestMethod.DELETE]: 'delete',
};

interface RouteArgument {
  index: number;
  data?: unknown;
  pipes?: unknown[];
}

function firstPath(value: unknown): string {
  const path: unknown = Array.isArray(value) ? value[0] : value;
  return typeof path === 'string' ? path : '';
}

/** `admin/v1/users` + `:login/password` → `/admin/v1/users/{login}/password`. */
function joinPath(controllerPath: string, handlerPath: string): string {
  const segments = [controllerPath, handlerPath].flatMap((part) => part.split('/')).filter((segment) => segment !== '');
  return `/${segments.map((segment) => (segment.startsWith(':') ? `{${segment.slice(1)}}` : segment)).join('/')}`;
}

const isParseInt = (pipe: unknown): boolean => pipe === ParseIntPipe || pipe instanceof ParseIntPipe;

function argumentsOf(controller: Type, handler: string): { body?: Type; query?: Type; params: Map<string, boolean> } {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler) ?? {}) as Record<string, RouteArgument>;
  const types = (Reflect.getMetadata(PARAMTYPES_METADATA, controller.prototype as object, handler) ?? []) as Type[];
  const found: { body?: Type; query?: Type; params: Map<string, boolean> } = { params: new Map() };
  for (const [key, arg] of Object.entries(args)) {
    // Custom decorators (the signed-in admin) have keys of their own shape, and nothing to document.
    const kind = RouteParamtypes[Number(key.split(':')[0])] as keyof typeof RouteParamtypes | undefined;
    if (kind === 'BODY' && arg.data === undefined) found.body = types[arg.index];
    if (kind === 'QUERY' && arg.data === undefined) found.query = types[arg.index];
    if (kind === 'PARAM' && typeof arg.data === 'string') found.params.set(arg.data, (arg.pipes ?? []).some(isParseInt));
  }
  return found;
}

function roleOf(controller: Type, handler: (...args: unknown[]) => unknown): AdminRole {
  return (Reflect.getMetadata(REQUIRED_ADMIN_ROLE, handler) ??
    Reflect.getMetadata(REQUIRED_ADMIN_ROLE, controller) ??
    'admin') as AdminRole;
}

function isPublic(controller: Type, handler: (...args: unknown[]) => unknown): boolean {
  // A mark that depends on the configuration (a function) is documented as guarded: the safe reading.
  return (Reflect.getMetadata(IS_PUBLIC, handler) ?? Reflect.getMetadata(IS_PUBLIC, controller)) === true;
}

/** Every endpoint of the `@AdminEndpoint()` controllers among `controllers`, in the order they declare them. */
export function adminRoutesOf(controllers: readonly Type[]): AdminRoute[] {
  const routes: AdminRoute[] = [];
  for (const controller of controllers) {
    if (Reflect.getMetadata(IS_ADMIN_API, controller) !== true) continue;
    const controllerPath = firstPath(Reflect.getMetadata(PATH_METADATA, controller));
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const fn = handler as (...args: unknown[]) => unknown;
      const method = METHODS[Reflect.getMetadata(METHOD_METADATA, fn) as RequestMethod];
      if (method === undefined || Reflect.getMetadata(PATH_METADATA, fn) === undefined) continue;
      const path = joinPath(controllerPath, firstPath(Reflect.getMetadata(PATH_METADATA, fn)));
      const { body, query, params } = argumentsOf(controller, name);
      const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map(([, param]) => ({ name: param!, integer: params.get(param!) === true }));
      routes.push({
        method,
        path,
        operationId: `${controller.name}.${name}`,
        status: (Reflect.getMetadata(HTTP_CODE_METADATA, fn) as number | undefined) ?? (method === 'post' ? 201 : 200),
        isPublic: isPublic(controller, fn),
        role: roleOf(controller, fn),
        body,
        query,
        pathParams,
        notes: Reflect.getMetadata(ADMIN_OPERATION, fn) as AdminOperationNotes | undefined,
      });
    }
  }
  return routes;
}
