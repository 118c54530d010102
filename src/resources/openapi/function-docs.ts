import { errorRefs } from '../../common/openapi/error-responses.js';
import { codeSpan, jsonContent, ref, type JsonObject } from '../../common/openapi/openapi-types.js';
import type { ParameterDefinition } from '../../extensions/functions/function-definition.js';
import { STRING_LENGTH_DEFAULT } from '../../extensions/functions/function-parameters.js';
import type { FunctionResource, TableFunction } from '../../extensions/functions/function-registry.js';
import { columnSchema } from './resource-schemas.js';

/** The `@docs` part of the project's functions and function resources. */
export interface FunctionDocs {
  schemas: Record<string, JsonObject>;
  paths: Record<string, JsonObject>;
  tags: JsonObject[];
}

const WRITE_RESULT = 'FunctionWriteResult';

/** A declared parameter as a query parameter. */
export function parameterSchema(name: string, definition: ParameterDefinition): JsonObject {
  const schema: JsonObject =
    definition.type === 'integer'
      ? { type: 'integer' }
      : definition.type === 'number'
        ? { type: 'number' }
        : definition.type === 'boolean'
          ? { type: 'boolean' }
          : definition.type === 'date'
            ? { type: 'string', format: 'date' }
            : { type: 'string', maxLength: definition.maxLength ?? STRING_LENGTH_DEFAULT };
  if (definition.min !== undefined) schema.minimum = definition.min;
  if (definition.max !== undefined) schema.maximum = definition.max;
  if (definition.minLength !== undefined) schema.minLength = definition.minLength;
  return {
    name,
    in: 'query',
    required: definition.required === true,
    ...(definition.description ? { description: definition.description } : {}),
    schema,
  };
}

function parametersOf(declared: Readonly<Record<string, ParameterDefinition>> | undefined): JsonObject[] {
  return Object.entries(declared ?? {}).map(([name, d]) => parameterSchema(name, d));
}

const PARAMETER_NOTE = 'A parameter it does not declare, a missing required one or a value not of its type is 400 / 4000 naming it.';
const LIMIT_NOTE =
  'Past its time limit: 503 / 5033; a refusal of its code: the refusal (codes ending in 8); a failure of its code: 500 / 5002.';

function writeOperation(summary: string, description: string, parameters: JsonObject[], status: number, tag: string): JsonObject {
  return {
    tags: [tag],
    summary,
    description: `${description} One transaction, through the rules: it commits when the code returns. ${PARAMETER_NOTE} ${LIMIT_NOTE}`,
    parameters,
    responses: {
      [status]: {
        description: 'What the code returned, and every row the transaction wrote.',
        content: jsonContent(ref('schemas', WRITE_RESULT)),
      },
      ...errorRefs(401, 403, 404, 405, 409, 422),
    },
  };
}

function functionPaths(fn: TableFunction): Record<string, JsonObject> {
  const { definition, table } = fn;
  const row = definition.kind === 'row';
  const path = row ? `/${table.urlName}/{key}/${definition.name}` : `/${table.urlName}/${definition.name}`;
  const key: JsonObject[] = row
    ? [
        {
          name: 'key',
          in: 'path',
          required: true,
          description: `The ${codeSpan(table.name)} row's key (a composite key's parts joined by ~).`,
          schema: { type: 'string' },
        },
      ]
    : [];
  const parameters = [...key, ...parametersOf(definition.parameters)];
  const what = `${row ? 'Row' : 'Resource'} function ${codeSpan(definition.name)} of ${codeSpan(table.name)}`;
  const description = [definition.description, definition.roles ? `Only for the roles ${definition.roles.join(', ')}.` : '']
    .filter(Boolean)
    .join(' ');
  const operations: JsonObject = {
    get: {
      tags: [table.name],
      summary: `${what}${definition.writes ? ' (without writing)' : ''}`,
      description:
        `${description} Needs READ on ${codeSpan(table.name)}${row ? '; a row the caller cannot see is 404 / 4041' : ''}. ` +
        `Answers what the function returns, as JSON. ${PARAMETER_NOTE} ${LIMIT_NOTE}`,
      parameters,
      responses: { 200: { description: 'What the function returned.', content: jsonContent({}) }, ...errorRefs(401, 403, 404, 405) },
    },
  };
  if (definition.writes) {
    const needs = `Needs ${definition.access ?? 'UPDATE'} on ${codeSpan(table.name)}.`;
    operations.post = writeOperation(`${what}, writing`, `${description} ${needs}`, parameters, 200, table.name);
    operations.put = writeOperation(`${what}, writing (as POST)`, `${description} ${needs}`, parameters, 200, table.name);
  }
  return { [path]: operations };
}

function resourcePaths(resource: FunctionResource, schemas: Record<string, JsonObject>): Record<string, JsonObject> {
  const { definition } = resource;
  const tag = definition.name;
  const parameters = parametersOf(definition.parameters);
  let item: JsonObject = {};
  if (resource.rows) {
    const { table, columns } = resource.rows;
    const name = `${definition.name}.row`;
    schemas[name] = {
      type: 'object',
      description: `A row of ${codeSpan(definition.name)}: columns of ${codeSpan(table.name)} the caller may read.`,
      properties: Object.fromEntries(columns.map((c) => [c, columnSchema(table.columnsByName.get(c)!, false)])),
    };
    item = ref('schemas', name);
  }
  const grant = `Roles grant it by name (${codeSpan(definition.name)}: access alone)${definition.explicitGrantOnly ? ', and only roles that name it' : ''}.`;
  const operations: JsonObject = {
    get: {
      tags: [tag],
      summary: `Function resource ${definition.name}`,
      description:
        `${definition.description ?? ''} Needs READ. ${grant} An array answer is paged like a table's list (pagesize, offset, ` +
        `a next_batch element last when more follow). ${PARAMETER_NOTE} ${LIMIT_NOTE}`,
      parameters: [...parameters, ref('parameters', 'pagesize'), ref('parameters', 'offset')],
      responses: {
        200: {
          description: 'What its code returned: an array is a page of it.',
          content: jsonContent({ anyOf: [{ type: 'array', items: { anyOf: [item, ref('schemas', 'NextBatch')] } }, {}] }),
        },
        ...errorRefs(401, 403, 405),
      },
    },
  };
  const writes = [
    ['post', 'INSERT', 201],
    ['put', 'UPDATE', 200],
    ['delete', 'DELETE', 200],
  ] as const;
  for (const [method, operation, status] of writes) {
    if (!resource.handlers.has(method.toUpperCase() as 'POST')) continue;
    operations[method] = writeOperation(
      `Function resource ${definition.name}: ${method.toUpperCase()}`,
      `Needs ${operation}. ${grant}`,
      parameters,
      status,
      tag,
    );
  }
  return { [`/${encodeURIComponent(definition.name)}`]: operations };
}

/** Paths, tags and schemas of the project's functions and function resources. */
export function functionDocs(functions: readonly TableFunction[], resources: readonly FunctionResource[]): FunctionDocs {
  const schemas: Record<string, JsonObject> = {};
  let paths: Record<string, JsonObject> = {};
  for (const fn of functions) paths = { ...paths, ...functionPaths(fn) };
  for (const resource of resources) paths = { ...paths, ...resourcePaths(resource, schemas) };
  if (functions.some((f) => f.definition.writes) || resources.some((r) => r.methods.length > 1)) {
    schemas[WRITE_RESULT] = {
      type: 'object',
      required: ['statusCode', 'result', 'txsummary'],
      properties: {
        statusCode: { enum: [200, 201] },
        result: { description: 'What the code returned.' },
        txsummary: { type: 'array', items: ref('schemas', 'TxSummaryEntry') },
      },
    };
  }
  const tags = resources.map((r) => ({
    name: r.definition.name,
    description: r.definition.description ?? `The function resource ${codeSpan(r.definition.name)}.`,
  }));
  return { schemas, paths, tags };
}
