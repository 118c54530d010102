import type { Resource } from '../data/resource-registry.js';

/**
 * Resource names that are not tables: each level of a custom resource (`Customers`,
 * `Customers.Orders`). RolesGuard asks it for the table whose grants decide access to such a name
 * (the level's table) in the URL's API version (a version may have custom resources of its own);
 * the resources layer provides it (`CustomResourceRegistry`). Asked only for names that are no table.
 */
export abstract class ResourcePaths {
  abstract tableOf(name: string, version: string | undefined): Resource | undefined;
}
