import { SetMetadata } from '@nestjs/common';
import { requestSlot } from '../common/request-slot.js';
import type { Resource } from '../data/resource-registry.js';
import type { NamedEndpoint } from './named-endpoints.js';
import type { Operation } from './role-definition.js';

/** The methods extensions answer (HEAD is GET; PATCH is not one). */
export type ExtensionMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The method an extension answers a request's as: HEAD is GET and PATCH is PUT, as on tables. */
export function extensionMethodOf(method: string | undefined): string {
  return method === 'HEAD' || method === undefined ? 'GET' : method === 'PATCH' ? 'PUT' : method;
}

/** The operation a role must grant for a method, on an extension that is not a table's function. */
export const OPERATION_OF_METHOD: Readonly<Record<ExtensionMethod, Operation>> = {
  GET: 'READ',
  POST: 'INSERT',
  PUT: 'UPDATE',
  DELETE: 'DELETE',
};

/**
 * What a request to the project's own code or SQL (a function, a function resource, a SQL resource, a stored
 * procedure) rather than to a table's rows needs of the caller; RolesGuard judges it as it judges a table's request.
 */
export interface ExtensionDemand {
  /** `function giveRaise`, `function resource topCustomers`, `SQL resource customer_orders`: named in the 403. */
  readonly label: string;
  /** A named endpoint's grant decides (a function resource)… */
  readonly endpoint?: NamedEndpoint;
  /** …or the grant on a table (a row or resource function of it), whose access the handler then gets. */
  readonly table?: Resource;
  /** The operation the request's method needs. */
  readonly operation: Operation;
  /** The operations of all the methods it answers: a caller its roles let use none of them hears 403, not 405. */
  readonly operations: readonly Operation[];
  /** When given, the caller also needs one of these roles. */
  readonly roles?: readonly string[];
  /** The methods it answers: another is 405 / 4050 with an `Allow` header. */
  readonly methods: readonly string[];
}

/**
 * Which extension, if any, a request on a resource route addresses (`<base>/<name>`, `<base>/<table>/<name>`,
 * `<base>/<table>/<key>/<name>`), by the project's declared names: the one hook through which RolesGuard finds
 * every kind (the extensions' `ExtensionDirectory` provides it). Asked once per request, before the table lookup:
 * a map lookup or two, none when the project declares no extension.
 */
export abstract class ExtensionRoutes {
  abstract demandOf(request: { method?: string; params?: Record<string, string | undefined> }): ExtensionDemand | undefined;
}

/** Marks a controller whose routes an extension may answer instead of a table (see `ExtensionRoutes`). */
export const EXTENSION_ROUTES = 'tessera:extensionRoutes';
export const ExtensionsMayAnswer = (): ClassDecorator => SetMetadata(EXTENSION_ROUTES, true);

const demands = requestSlot<ExtensionDemand>('tesseraExtensionDemand');

/** The extension RolesGuard admitted the request to, for the handler that runs it; undefined for a table's request. */
export const extensionDemandOf = demands.get;
export const setExtensionDemand = demands.set;
