import { isKeyless, type Resource } from '../../data/resource-registry.js';
import type { CustomResource } from '../../documents/levels/custom-resource-registry.js';
import { customResourceDocs, namedParameters } from './custom-resource-docs.js';
import { errorResponses, errorSchema } from '../../common/openapi/error-responses.js';
import { codeSpan, type JsonObject, type OpenApiDocument } from '../../common/openapi/openapi-types.js';
import { queryParameters, resourcePaths, viewPaths } from './resource-paths.js';
import { componentNamesOf, insertSchema, keyParameter, resourceSchema, sharedResourceSchemas } from './resource-schemas.js';
import { systemPaths, systemSchemas } from './system-paths.js';
import { MIXED_OBJECT, mixedObjectSchema, mixedWritePaths } from './mixed-paths.js';
import { sqlEndpointDocs, type SqlEndpointDoc } from './sql-endpoint-docs.js';
import type { FunctionResource, TableFunction } from '../../extensions/functions/function-registry.js';
import { functionDocs } from './function-docs.js';

/** What the document is generated from: the resource registry, the rules' derived attributes and the API's settings. */
export interface OpenApiSource {
  /** The API project's name: the document's title. */
  project: string;
  account: string;
  tesseraVersion: string;
  resources: readonly Resource[];
  /** The project's custom (nested) resources. */
  customResources?: readonly CustomResource[];
  /** The tables' named filters and orders (`tableQueries`): each a table level's resource. */
  tableQueries?: readonly CustomResource[];
  /** The project's functions and function resources. */
  functions?: readonly TableFunction[];
  functionResources?: readonly FunctionResource[];
  /** Attributes logic rules derive on a resource: read-only for clients. */
  derived: (resource: Resource) => ReadonlySet<string>;
  resourcePrefix: string;
  permitAuthInUrl: boolean;
  allowFreeFormFilters: boolean;
  pageSizeDefault: number;
  pageSizeMax: number;
  /** `@docs` needs no token. */
  docsPublic: boolean;
  /**
   * The fields the project's response events add to a resource's GET answers in this version (`adds`), by the
   * resource's lower-case name (a table's, a custom resource level's path).
   */
  addedFields?: (resource: string) => ReadonlyArray<{ field: string; event: string }>;
  /** The project's SQL resources and the procedures served on this database. */
  sqlEndpoints?: readonly SqlEndpointDoc[];
}

/** A resource's schema with the fields response events add to its objects. */
function withAddedFields(schema: JsonObject, added: ReadonlyArray<{ field: string; event: string }>): JsonObject {
  if (added.length === 0) return schema;
  const properties = { ...(schema.properties as Record<string, unknown>) };
  for (const { field, event } of added) {
    properties[field] = { description: `Added to GET answers by the response event ${codeSpan(event)}; left out of writes.` };
  }
  return { ...schema, properties };
}

const HEADER_SCHEME = 'CALiveAPICreator';
const QUERY_SCHEME = 'authInUrl';

function securitySchemes(source: OpenApiSource): Record<string, JsonObject> {
  const schemes: Record<string, JsonObject> = {
    [HEADER_SCHEME]: {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description:
        'A token from @authentication (or one an operator made), sent as "Authorization: CALiveAPICreator <apikey>:1". ' +
        'The scheme words Espresso and Bearer work too (any case), and ":1" is optional. No token: 401 / 4010; unknown or disabled: 4011; expired: 4012.',
    },
  };
  if (source.permitAuthInUrl) {
    schemes[QUERY_SCHEME] = {
      type: 'apiKey',
      in: 'query',
      name: 'auth',
      description: '"?auth=<apikey>:1", on GET only (401 / 4014 on other methods). Keys in URLs end up in logs and caches along the way.',
    };
  }
  return schemes;
}

/**
 * The OpenAPI 3.1 document of one API version, generated from the resource registry (never
 * written by hand), without `servers`: those depend on the request (see `OpenApiDocs`).
 */
export function buildOpenApiDocument(source: OpenApiSource, version: string): OpenApiDocument {
  const getSecurity = source.permitAuthInUrl ? [{ [HEADER_SCHEME]: [] }, { [QUERY_SCHEME]: [] }] : undefined;
  const system = systemSchemas();
  const shared = sharedResourceSchemas(source.resources.filter((r) => !r.view).map((r) => r.name));
  const names = componentNamesOf(
    source.resources,
    (r) => r.name,
    [...Object.keys(system), ...Object.keys(shared), 'Error', MIXED_OBJECT].flatMap((n) => [n, `${n}.new`]),
  );
  const options = {
    allowFreeFormFilters: source.allowFreeFormFilters,
    pageSizeDefault: source.pageSizeDefault,
    pageSizeMax: source.pageSizeMax,
    getSecurity,
  };

  const schemas: Record<string, JsonObject> = { ...shared, Error: errorSchema(), [MIXED_OBJECT]: mixedObjectSchema(), ...system };
  const parameters: Record<string, JsonObject> = queryParameters(options);
  let paths: Record<string, JsonObject> = systemPaths({
    getSecurity,
    docsPublic: source.docsPublic,
    allowFreeFormFilters: source.allowFreeFormFilters,
  });
  paths = { ...paths, ...mixedWritePaths() };
  const namedQueries = new Map((source.tableQueries ?? []).map((q) => [q.root.table, q]));
  for (const resource of source.resources) {
    const name = names.get(resource)!;
    const derived = source.derived(resource);
    schemas[name] = withAddedFields(resourceSchema(resource, derived), source.addedFields?.(resource.name.toLowerCase()) ?? []);
    if (!resource.view) schemas[`${name}.new`] = insertSchema(resource, derived, name);
    if (!isKeyless(resource)) parameters[`key.${name}`] = keyParameter(resource);
    paths = { ...paths, ...(resource.view ? viewPaths(resource, name, options) : resourcePaths(resource, name, options)) };
    const named = namedQueries.get(resource);
    if (named) {
      // The collection GET takes the table's userfilter and userorder (as a custom resource's).
      const list = (paths[`/${encodeURIComponent(resource.name)}`] as { get?: { parameters: JsonObject[] } } | undefined)?.get;
      if (list) list.parameters = [...list.parameters, ...namedParameters(named)];
    }
  }
  const custom = customResourceDocs(
    { resources: source.customResources ?? [], derived: source.derived, allowFreeFormFilters: source.allowFreeFormFilters },
    Object.keys(schemas),
  );
  if (source.addedFields) {
    for (const [name, schema] of Object.entries(custom.schemas)) {
      if (typeof schema.title === 'string') custom.schemas[name] = withAddedFields(schema, source.addedFields(schema.title.toLowerCase()));
    }
  }

  const sql = sqlEndpointDocs(source.sqlEndpoints ?? [], getSecurity);
  const extensions = functionDocs(source.functions ?? [], source.functionResources ?? []);

  return {
    openapi: '3.1.0',
    info: {
      title: source.project,
      version,
      description:
        `The ${source.project} API (account ${source.account}), served by Tessera ${source.tesseraVersion} and generated from its resources at start-up. ` +
        'It speaks the wire protocol of CA Live API Creator. Each resource is also reachable as ' +
        `${source.resourcePrefix}:<table>, and names match in any case. Errors are {statusCode, errorCode, errorMessage}.`,
      'x-tessera-version': source.tesseraVersion,
    },
    security: [{ [HEADER_SCHEME]: [] }],
    tags: [
      { name: 'authentication', description: 'Tokens.' },
      { name: 'system', description: 'Health, information and descriptions of this API.' },
      { name: 'mixed', description: 'Objects of several resources in one request, each naming its own (LAC\'s "Mix and Match").' },
      ...source.resources.map((r) => ({
        name: r.name,
        description: r.view ? `The ${codeSpan(r.tableName)} view (read-only).` : `The ${codeSpan(r.tableName)} table.`,
      })),
      ...custom.tags,
      ...sql.tags,
      ...extensions.tags,
    ],
    paths: { ...paths, ...custom.paths, ...sql.paths, ...extensions.paths },
    components: {
      schemas: { ...schemas, ...custom.schemas, ...extensions.schemas },
      responses: errorResponses(),
      parameters: { ...parameters, ...custom.parameters },
      securitySchemes: securitySchemes(source),
    },
  };
}

/** The documents of every served version, built once at boot; a request adds only its server URL. */
export class OpenApiDocs {
  private readonly byVersion: ReadonlyMap<string, OpenApiDocument>;

  /** `ofVersion`: what differs by version (its custom resources, the fields its response events add). */
  constructor(source: OpenApiSource, versions: readonly string[], ofVersion?: (version: string) => Partial<OpenApiSource>) {
    this.byVersion = new Map(versions.map((version) => [version, buildOpenApiDocument({ ...source, ...ofVersion?.(version) }, version)]));
  }

  /** The document of `version` with `serverUrl` (the API base the client used) as its server; undefined for a version not served. */
  for(version: string, serverUrl: string): OpenApiDocument | undefined {
    const document = this.byVersion.get(version);
    if (!document) return undefined;
    const { openapi, info, ...rest } = document;
    return { openapi, info, servers: [{ url: serverUrl }], ...rest };
  }
}
