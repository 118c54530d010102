import { SetMetadata } from '@nestjs/common';
import { requestSlot } from '../common/request-slot.js';
import type { Resource } from '../data/resource-registry.js';
import type { NamedEndpoint } from './named-endpoints.js';
import type { Operation } from './role-definition.js';

/**
 * What a request to the project's own code (a function, a function resource) rather than to a table's rows
 * needs of the caller; RolesGuard judges it as it judges a table's request.
 */
export interface ExtensionDemand {
  /** `function giveRaise`, `function resource topCustomers`: named in the 403. */
  readonly label: string;
  /** A named endpoint's grant decides (a function resource)… */
  readonly endpoint?: NamedEndpoint;
  /** …or the grant on a table (a row or resource function of it), whose access the handler then gets. */
  readonly table?: Resource;
  /** The operation the request's method needs. */
  readonly operation: Operation;
  /** When given, the caller also needs one of these roles. */
  readonly roles?: readonly string[];
  /** The methods it answers: another is 405 / 4050 with an `Allow` header. */
  readonly methods: readonly string[];
}

/**
 * Which extension, if any, a request on a resource route addresses (`<base>/<name>`, `<base>/<table>/<name>`,
 * `<base>/<table>/<key>/<name>`), by the project's declared names; the extensions provide it. Asked once per
 * request, after the table lookup would be: one map lookup, none when the project declares no extension.
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
