import { errorRefs } from '../../common/openapi/error-responses.js';
import { jsonContent, readContent, ref, codeSpan, type JsonObject } from '../../common/openapi/openapi-types.js';
import type { SqlParameterDefinition } from '../../extensions/sql-resources/sql-resource-definition.js';

/** A SQL resource or procedure as `@docs` shows it. */
export interface SqlEndpointDoc {
  name: string;
  kind: 'SQL resource' | 'procedure';
  description?: string;
  parameters: ReadonlyArray<{ name: string; definition: SqlParameterDefinition }>;
}

function schemaOf(parameter: SqlParameterDefinition): JsonObject {
  switch (parameter.type) {
    case 'integer':
    case 'number':
      return {
        type: parameter.type,
        ...(parameter.min === undefined ? {} : { minimum: parameter.min }),
        ...(parameter.max === undefined ? {} : { maximum: parameter.max }),
      };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'string':
      return { type: 'string', maxLength: parameter.maxLength ?? 1000 };
  }
}

function queryParameter(name: string, definition: SqlParameterDefinition): JsonObject {
  return {
    name,
    in: 'query',
    required: definition.required === true,
    ...(definition.description ? { description: definition.description } : {}),
    schema: schemaOf(definition),
  };
}

const ROW = { type: 'object', additionalProperties: true, description: 'A row, its columns as the SELECT names them.' };

/**
 * The paths of the project's SQL resources (GET, paged, with their parameters) and procedures (GET with
 * `arg.<name>` and POST with an object of arguments), and a tag for each: `@docs` shows them beside the tables.
 */
export function sqlEndpointDocs(
  endpoints: readonly SqlEndpointDoc[],
  getSecurity: unknown,
): { paths: Record<string, JsonObject>; tags: JsonObject[] } {
  const paths: Record<string, JsonObject> = {};
  const security = getSecurity ? { security: getSecurity } : {};
  for (const endpoint of endpoints) {
    const path = `/${encodeURIComponent(endpoint.name)}`;
    if (endpoint.kind === 'SQL resource') {
      paths[path] = {
        get: {
          tags: [endpoint.name],
          operationId: `sql_${endpoint.name}`,
          summary: endpoint.description ?? `The SQL resource ${endpoint.name}`,
          description:
            "A SELECT of the project's over the rows and columns of each table the caller's roles may read; read-only, paged. " +
            'An unknown parameter is 400 / 4000; a column of a table the caller may not read that the SELECT uses is 403 / 4030.',
          ...security,
          parameters: [
            ...endpoint.parameters.map((p) => queryParameter(p.name, p.definition)),
            ref('parameters', 'pagesize'),
            ref('parameters', 'offset'),
          ],
          responses: {
            200: {
              description: 'A page of rows, in the order of the SELECT.',
              content: readContent({ type: 'array', items: { anyOf: [ROW, ref('schemas', 'NextBatch')] } }),
            },
            ...errorRefs(400, 401, 403, 404),
          },
        },
      };
      continue;
    }
    const sets = {
      type: 'array',
      description: 'The result sets the routine returns, each a list of rows.',
      items: { type: 'array', items: ROW },
    };
    const common = {
      tags: [endpoint.name],
      description:
        "A stored routine of the database: it runs with the database user's rights, so only roles that name it may call it. " +
        'GET needs READ in the grant, POST INSERT. A missing argument is NULL.',
      responses: {
        200: { description: 'The result sets.', content: jsonContent(sets) },
        201: { description: 'The result sets (POST).', content: jsonContent(sets) },
        ...errorRefs(400, 401, 403, 404),
      },
    };
    paths[path] = {
      get: {
        ...common,
        operationId: `call_${endpoint.name}`,
        summary: endpoint.description ?? `Call the procedure ${endpoint.name}`,
        ...security,
        parameters: endpoint.parameters.map((p) => queryParameter(`arg.${p.name}`, p.definition)),
      },
      post: {
        ...common,
        operationId: `post_${endpoint.name}`,
        summary: `${endpoint.description ?? `Call the procedure ${endpoint.name}`} (arguments in the body)`,
        requestBody: {
          required: true,
          content: jsonContent({
            type: 'object',
            additionalProperties: false,
            properties: Object.fromEntries(endpoint.parameters.map((p) => [p.name, schemaOf(p.definition)])),
          }),
        },
      },
    };
  }
  const tags = endpoints.map((e) => ({
    name: e.name,
    description:
      e.kind === 'SQL resource' ? `The SQL resource ${codeSpan(e.name)} (read-only).` : `The stored procedure ${codeSpan(e.name)}.`,
  }));
  return { paths, tags };
}
