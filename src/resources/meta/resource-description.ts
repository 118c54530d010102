import type { Resource, ResourceRegistry } from '../../data/resource-registry.js';
import type { CustomResource } from '../custom/custom-resource-registry.js';

/**
 * One entry of `@resources` for a table resource: Tessera's fields (`prefixedName`, `table`, `primaryKey`) and
 * LAC's (`name`, `resource_type`, `prefix`, `entity`, `apiVersion`, `is_collection`, `description` and
 * `@metadata.href`, the resource's collection URL), which the LAC CLI's `describe resources` prints.
 */
export function describeTableResource(
  baseUrl: string,
  registry: ResourceRegistry,
  resource: Resource,
  apiVersion: string,
): Record<string, unknown> {
  return {
    '@metadata': { href: `${baseUrl}/${encodeURIComponent(resource.name)}` },
    name: resource.name,
    resource_type: 'TableBased',
    prefix: registry.prefix,
    entity: resource.tableName,
    apiVersion,
    is_collection: true,
    description: `The ${resource.tableName} table.`,
    prefixedName: `${registry.prefix}:${resource.tableName}`,
    table: resource.tableName,
    primaryKey: resource.primaryKey.map((c) => c.name),
  };
}

/**
 * One entry of `@resources` for a custom (nested) resource: `entity` is the table of its top level, `table` and
 * `primaryKey` those of that table (its objects' keys); its attributes and levels are in `@docs`.
 */
export function describeCustomResource(
  baseUrl: string,
  registry: ResourceRegistry,
  resource: CustomResource,
  apiVersion: string,
): Record<string, unknown> {
  const table = resource.root.table;
  return {
    '@metadata': { href: `${baseUrl}/${encodeURIComponent(resource.name)}` },
    name: resource.name,
    resource_type: 'Custom',
    prefix: registry.prefix,
    entity: table.tableName,
    apiVersion,
    is_collection: true,
    description: resource.description ?? null,
    table: table.tableName,
    primaryKey: table.primaryKey.map((c) => c.name),
  };
}
