import type { Resource, ResourceRegistry } from '../../data/resource-registry.js';
import type { CustomResource } from '../../documents/levels/custom-resource-registry.js';
import type { ExtensionResource } from '../../extensions/extension-directory.js';

/**
 * One entry of `@resources` for a table (or view) resource: Tessera's fields (`prefixedName`, `table`, `primaryKey`,
 * and `readOnly: true` for a view) and
 * LAC's (`name`, `resource_type`, `prefix`, `entity`, `apiVersion`, `is_collection`, `description` and
 * `@metadata.href`, the resource's collection URL), which the LAC CLI's `describe resources` prints.
 */
export function describeTableResource(
  baseUrl: string,
  registry: ResourceRegistry,
  resource: Resource,
  apiVersion: string,
): Record<string, unknown> {
  return describeResource(baseUrl, registry, apiVersion, {
    name: resource.name,
    type: 'TableBased',
    table: resource,
    description: resource.view ? `The ${resource.tableName} view (read-only).` : `The ${resource.tableName} table.`,
    prefixedName: `${registry.prefix}:${resource.tableName}`,
  });
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
  return describeResource(baseUrl, registry, apiVersion, {
    name: resource.name,
    type: 'Custom',
    table: resource.root.table,
    description: resource.description ?? null,
  });
}

/** What sets one `@resources` entry apart; `table` is its (top level's) table. */
interface EntryOf {
  name: string;
  type: 'TableBased' | 'Custom';
  table: Resource;
  description: string | null;
  /** Table resources only. */
  prefixedName?: string;
}

function describeResource(baseUrl: string, registry: ResourceRegistry, apiVersion: string, entry: EntryOf): Record<string, unknown> {
  return {
    '@metadata': { href: `${baseUrl}/${encodeURIComponent(entry.name)}` },
    name: entry.name,
    resource_type: entry.type,
    prefix: registry.prefix,
    entity: entry.table.tableName,
    apiVersion,
    is_collection: true,
    description: entry.description,
    ...(entry.prefixedName === undefined ? {} : { prefixedName: entry.prefixedName }),
    table: entry.table.tableName,
    primaryKey: entry.table.primaryKey.map((c) => c.name),
    ...(entry.type === 'TableBased' && entry.table.view ? { readOnly: true } : {}),
  };
}

/**
 * One entry of `@resources` (and of `@procedures`) for a resource that is not a table, under LAC's resource types: a
 * function resource (`JavaScript`), a SQL resource (`FreeSQL`, read-only), a stored procedure (`StoredProcedure`). It
 * has no key of its own (`primaryKey` is empty); `entity` and `table` name the table its rows come from when it says
 * (a function resource's `rows`), else null; its parameters with their types, and the methods it answers.
 */
export function describeExtensionResource(
  baseUrl: string,
  registry: ResourceRegistry,
  resource: ExtensionResource,
  apiVersion: string,
): Record<string, unknown> {
  const table = resource.table?.tableName ?? null;
  return {
    '@metadata': { href: `${baseUrl}/${encodeURIComponent(resource.name)}` },
    name: resource.name,
    resource_type: resource.type,
    prefix: registry.prefix,
    entity: table,
    apiVersion,
    is_collection: true,
    description: resource.description ?? null,
    table,
    primaryKey: [],
    ...(resource.type === 'FreeSQL' ? { readOnly: true } : {}),
    parameters: resource.parameters.map((p) => ({ name: p.name, type: p.type, required: p.required })),
    methods: resource.methods,
  };
}
