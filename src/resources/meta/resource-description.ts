import type { Resource, ResourceRegistry } from '../../data/resource-registry.js';
import type { CustomResource } from '../../documents/levels/custom-resource-registry.js';
import type { FunctionResource } from '../../extensions/functions/function-registry.js';

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

/** What a SQL resource's or procedure's `@resources` entry says of it. */
export interface SqlEndpointEntry {
  name: string;
  description?: string;
  parameters: ReadonlyArray<{ name: string; type: string; required: boolean }>;
}

/**
 * One entry of `@resources` (and of `@procedures`) for a SQL resource (`FreeSQL`, read-only) or a stored procedure
 * (`StoredProcedure`), LAC's names for them: no table, so `entity` and `table` are null and the key is empty; its
 * parameters with their types.
 */
export function describeSqlEndpoint(
  baseUrl: string,
  registry: ResourceRegistry,
  apiVersion: string,
  type: 'FreeSQL' | 'StoredProcedure',
  entry: SqlEndpointEntry,
): Record<string, unknown> {
  return {
    '@metadata': { href: `${baseUrl}/${encodeURIComponent(entry.name)}` },
    name: entry.name,
    resource_type: type,
    prefix: registry.prefix,
    entity: null,
    apiVersion,
    is_collection: true,
    description: entry.description ?? null,
    table: null,
    primaryKey: [],
    ...(type === 'FreeSQL' ? { readOnly: true } : {}),
    parameters: entry.parameters.map((p) => ({ name: p.name, type: p.type, required: p.required })),
  };
}

/**
 * One entry of `@resources` for a function resource (LAC's "JavaScript" resource type): `entity` and `table` are those
 * its rows come from when it declares them (`rows`), else null; it has no key of its own.
 */
export function describeFunctionResource(
  baseUrl: string,
  registry: ResourceRegistry,
  resource: FunctionResource,
  apiVersion: string,
): Record<string, unknown> {
  const table = resource.rows?.table.tableName ?? null;
  return {
    '@metadata': { href: `${baseUrl}/${encodeURIComponent(resource.definition.name)}` },
    name: resource.definition.name,
    resource_type: 'JavaScript',
    prefix: registry.prefix,
    entity: table,
    apiVersion,
    is_collection: true,
    description: resource.definition.description ?? null,
    table,
    primaryKey: [],
    methods: resource.methods,
  };
}
