import type { Resource } from '../../data/resource-registry.js';
import { levelsFrom, type CustomResource, type ResourceLevel } from '../../documents/levels/custom-resource-registry.js';
import { errorRefs } from '../../common/openapi/error-responses.js';
import { codeSpan, jsonContent, readContent, ref, type JsonObject } from '../../common/openapi/openapi-types.js';
import { LAC_GET_PARAMETERS, WRITE_PARAMETERS } from '../query-parameters.js';
import { asPatch } from './resource-paths.js';
import { columnSchema, componentNamesOf, keyParameter } from './resource-schemas.js';

/**
 * The `@docs` part of the project's custom resources (nested documents): one schema per level, named by its
 * path (`Customers`, `Customers.Orders`, as LAC's own documents named them), the operations on each custom
 * resource, and GET on each deeper level's own URL (`/Customers.Orders`), with the per-level query parameters
 * (`filter.Orders`, `sysorder.Orders.Lineitems`, ...) and the resource's named filters and orders.
 */
export interface CustomDocsSource {
  resources: readonly CustomResource[];
  derived: (resource: Resource) => ReadonlySet<string>;
  allowFreeFormFilters: boolean;
}

export interface CustomDocs {
  schemas: Record<string, JsonObject>;
  parameters: Record<string, JsonObject>;
  paths: Record<string, JsonObject>;
  tags: JsonObject[];
}

function levelSchema(level: ResourceLevel, names: Map<ResourceLevel, string>, derived: ReadonlySet<string>): JsonObject {
  const properties: Record<string, unknown> = { '@metadata': ref('schemas', 'Metadata') };
  for (const attribute of level.attributes) {
    const schema = columnSchema(attribute.column, derived.has(attribute.column.name));
    if (attribute.name !== attribute.column.name) {
      schema.description = [`Column ${codeSpan(attribute.column.name)}.`, schema.description].filter(Boolean).join(' ');
    }
    properties[attribute.name] = schema;
  }
  for (const sub of level.subLevels) {
    const item = ref('schemas', names.get(sub)!);
    properties[sub.name] =
      sub.kind === 'child'
        ? {
            type: 'array',
            description: `Its ${codeSpan(sub.table.tableName)} rows (${sub.name}); pagesize applies per level, a next_batch element ends a cut array.`,
            items: { anyOf: [item, ref('schemas', 'NextBatch')] },
          }
        : { description: `Its ${codeSpan(sub.table.tableName)} (${sub.name}), or null.`, oneOf: [item, { type: 'null' }] };
  }
  for (const sub of level.functionLevels) {
    properties[sub.name] = {
      description:
        `What the function resource ${codeSpan(sub.functionResource)} answers for this object (read-only; left out for a caller ` +
        'its roles do not grant it); an array is cut at pagesize, a next_batch element ending it.',
      readOnly: true,
    };
  }
  return {
    type: 'object',
    title: level.path,
    description:
      `${level.path}: rows of ${codeSpan(level.table.tableName)}` +
      (level.kind === 'root' && level.resource.description ? ` (${level.resource.description})` : '') +
      ". Attributes and levels the caller's roles may not read are left out.",
    properties,
    additionalProperties: false,
  };
}

/** `filter.<P>`, `sysfilter.<P>`, `order.<P>`, `sysorder.<P>` for each level below `root`. */
function levelParameters(root: ResourceLevel, allowFreeFormFilters: boolean): JsonObject[] {
  return levelsFrom(root)
    .filter((level) => level !== root)
    .flatMap((level) => {
      const sub = level.path.slice(root.path.length + 1);
      const names = allowFreeFormFilters ? ['filter', 'sysfilter', 'order', 'sysorder'] : ['sysfilter', 'sysorder'];
      return names.map((kind) => ({
        name: `${kind}.${sub}`,
        in: 'query',
        required: false,
        description: `${kind} applied to the ${sub} level only (its attribute names), as ${kind} is to the top level.`,
        schema: kind.endsWith('filter') ? { type: 'array', items: { type: 'string', maxLength: 4096 } } : { type: 'string' },
        ...(kind.endsWith('filter') ? { style: 'form', explode: true } : {}),
      }));
    });
}

/** The `userfilter` and `userorder` parameters of a collection with named filters or orders (a custom resource's, a table's). */
export function namedParameters(resource: CustomResource): JsonObject[] {
  const out: JsonObject[] = [];
  if (resource.userFilters.size > 0) {
    const filters = [...resource.userFilters.values()].map((f) => `${f.name}(${[...f.parameters].map((p) => `${p}:value`).join(', ')})`);
    out.push({
      name: 'userfilter',
      in: 'query',
      required: false,
      description: `A named filter, its values bound as parameters: ${filters.join('; ')}.`,
      schema: { type: 'string', maxLength: 4096 },
    });
  }
  if (resource.userOrders.size > 0) {
    out.push({
      name: 'userorder',
      in: 'query',
      required: false,
      description: 'A named order.',
      schema: { enum: [...resource.userOrders.keys()] },
    });
  }
  return out;
}

const WRITE_NOTE =
  "A nested document (an object or an array of them). Each object's @metadata.action (INSERT, UPDATE, DELETE, LOOKUP, MERGE_INSERT) says what to do with its row, " +
  'by default INSERT on POST and UPDATE on PUT; children get their foreign keys from their parent. One transaction for the whole document.';

export function customResourceDocs(source: CustomDocsSource, taken: Iterable<string>): CustomDocs {
  const levels = source.resources.flatMap((r) => levelsFrom(r.root));
  const names = componentNamesOf(levels, (level) => level.path, taken);
  const schemas: Record<string, JsonObject> = {};
  const parameters: Record<string, JsonObject> = {};
  const paths: Record<string, JsonObject> = {};
  const shared = (list: string[]): JsonObject[] => list.map((name) => ref('parameters', name));
  const rootQuery = source.allowFreeFormFilters
    ? ['filter', 'sysfilter', 'order', 'sysorder', 'pagesize', 'offset', 'nometa', ...LAC_GET_PARAMETERS]
    : ['sysfilter', 'sysorder', 'pagesize', 'offset', 'nometa', ...LAC_GET_PARAMETERS];
  const writeQuery = shared(WRITE_PARAMETERS);
  for (const level of levels) schemas[names.get(level)!] = levelSchema(level, names, source.derived(level.table));

  for (const level of levels) {
    const name = names.get(level)!;
    const tags = [level.resource.name];
    const row = ref('schemas', name);
    const path = `/${level.path}`;
    parameters[`key.${name}`] = {
      ...keyParameter(level.table),
      description: `The key of the ${codeSpan(level.table.tableName)} row at the top of ${level.path}.`,
    };
    const query = [
      ...shared(rootQuery),
      ...(level.kind === 'root' ? namedParameters(level.resource) : []),
      ...levelParameters(level, source.allowFreeFormFilters),
    ];
    const list: JsonObject = {
      tags,
      operationId: `list_${name}`,
      summary: `List ${level.path}`,
      description:
        level.kind === 'root'
          ? `Documents of ${codeSpan(level.table.tableName)} rows with their levels, read with one query per level.`
          : `The ${level.path} level as a resource of its own, with the levels below it.`,
      parameters: query,
      responses: {
        200: {
          description: 'A page of documents.',
          content: readContent({ type: 'array', items: { anyOf: [row, ref('schemas', 'NextBatch')] } }),
        },
        ...errorRefs(400, 401, 403, 404, 406),
      },
    };
    const get: JsonObject = {
      tags,
      operationId: `get_${name}`,
      summary: `Get one ${level.path} by key`,
      parameters: [
        ...shared(['nometa', 'pagesize', 'offset', ...LAC_GET_PARAMETERS]),
        ...levelParameters(level, source.allowFreeFormFilters),
      ],
      responses: {
        200: { description: 'An array of zero or one document.', content: readContent({ type: 'array', items: row, maxItems: 1 }) },
        ...errorRefs(400, 401, 403, 404, 406),
      },
    };
    if (level.kind !== 'root') {
      list.parameters = [
        ...query,
        {
          name: 'parent',
          in: 'query',
          required: false,
          description: `The key of one ${codeSpan(level.link!.owner.table.tableName)} row (as in its URL): only the rows of ${level.path} under it (next_batch links of nested arrays use it).`,
          schema: { type: 'string' },
        },
      ];
      paths[path] = { get: list };
      paths[`${path}/{key}`] = { parameters: [ref('parameters', `key.${name}`)], get };
      continue;
    }
    const body = jsonContent({ oneOf: [row, { type: 'array', items: row, minItems: 1 }] });
    const written = (status: '200' | '201', description: string): JsonObject => ({
      [status]: { description, content: jsonContent(ref('schemas', 'WriteResult')) },
    });
    const updateList: JsonObject = {
      tags,
      operationId: `update_${name}_list`,
      summary: `Update ${level.path} documents`,
      description: `${WRITE_NOTE} Objects updated carry @metadata.checksum.`,
      parameters: writeQuery,
      requestBody: { required: true, content: body },
      responses: { ...written('200', 'Written.'), ...errorRefs(400, 401, 403, 404, 409, 413, 415, 422) },
    };
    const updateOne: JsonObject = {
      tags,
      operationId: `update_${name}`,
      summary: `Update one ${level.path} document`,
      description: `${WRITE_NOTE} The top object carries @metadata.checksum.`,
      parameters: writeQuery,
      requestBody: { required: true, content: jsonContent(row) },
      responses: { ...written('200', 'Written.'), ...errorRefs(400, 401, 403, 404, 409, 413, 415, 422) },
    };
    paths[path] = {
      get: list,
      post: {
        tags,
        operationId: `insert_${name}`,
        summary: `Insert ${level.path} documents`,
        description: WRITE_NOTE,
        parameters: writeQuery,
        requestBody: { required: true, content: body },
        responses: { ...written('201', 'Written.'), ...errorRefs(400, 401, 403, 404, 409, 413, 415, 422) },
      },
      put: updateList,
      patch: asPatch(updateList),
    };
    paths[`${path}/{key}`] = {
      parameters: [ref('parameters', `key.${name}`)],
      get,
      put: updateOne,
      patch: asPatch(updateOne),
      delete: {
        tags,
        operationId: `delete_${name}`,
        summary: `Delete one ${level.path} row`,
        description: 'Needs the current checksum (query or If-Match), as for a table.',
        parameters: [ref('parameters', 'checksum'), ref('parameters', 'If-Match'), ...writeQuery, ref('parameters', 'ignoredeleted')],
        responses: { ...written('200', 'Deleted.'), ...errorRefs(400, 401, 403, 404, 409, 422) },
      },
    };
  }
  const tags = source.resources.map((r) => ({
    name: r.name,
    description: r.description ?? `Custom resource over ${codeSpan(r.root.table.tableName)}.`,
  }));
  return { schemas, parameters, paths, tags };
}
