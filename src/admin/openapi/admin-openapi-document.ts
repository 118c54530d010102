import { errorRefs, errorResponses, errorSchema } from '../../common/openapi/error-responses.js';
import { jsonContent, ref, type JsonObject, type OpenApiDocument } from '../../common/openapi/openapi-types.js';
import type { AdminRoute } from './admin-routes.js';
import { adminAnswerSchemas } from './admin-schemas.js';
import { dtoProperties, dtoSchema } from './dto-schema.js';

export const ADMIN_TOKEN_SCHEME = 'adminToken';

/** `/admin/v1/users/{login}` → `users`; the sign-in and the signed-in admin get names of their own. */
function tagOf(path: string): string {
  const segment = path.split('/')[3] ?? '';
  if (segment === '@authentication') return 'sign-in';
  if (segment === '@me') return 'me';
  return segment.replace(/\.json$/, '');
}

/** The error statuses a route may answer, beyond those of every request (errorRefs adds 400, 414, 500, 503). */
function errorStatuses(route: AdminRoute, extra: readonly number[]): number[] {
  const statuses = [...extra];
  if (!route.isPublic) statuses.push(401);
  // An auditor's token reaches only the endpoints open to auditors.
  if (!route.isPublic && route.role === 'admin') statuses.push(403);
  if (route.body) statuses.push(413, 415);
  // A write that keeps conflicting with concurrent ones past WRITE_RETRY_BUDGET_MS: 409 / 4093.
  if (!route.isPublic && route.method !== 'get') statuses.push(409);
  return statuses;
}

function whoMayCall(route: AdminRoute): string {
  if (route.isPublic) return 'No admin token needed.';
  return route.role === 'admin' ? 'Needs an admin token of the role admin.' : 'Needs an admin token (role auditor or admin).';
}

function parametersOf(route: AdminRoute): JsonObject[] {
  const path = route.pathParams.map(({ name, integer }) => ({
    name,
    in: 'path',
    required: true,
    schema: integer ? { type: 'integer' } : { type: 'string' },
  }));
  const query = route.query
    ? dtoProperties(route.query).map(({ name, required, schema }) => ({ name, in: 'query', required, schema }))
    : [];
  return [...path, ...query];
}

function successOf(route: AdminRoute, answer: JsonObject | undefined): JsonObject {
  if (route.status === 204) return { description: 'Done; no body.' };
  if (!answer) return { description: 'Not described.' };
  return { description: 'Success.', content: jsonContent(answer) };
}

/** The name of a DTO's schema: `CreateUserDto` → `CreateUser`. */
const schemaNameOf = (dto: { name: string }): string => dto.name.replace(/Dto$/, '');

/**
 * The OpenAPI 3.1 document of the admin API, generated from its routes (Nest's metadata, see
 * adminRoutesOf) and their DTOs (class-validator's metadata), with the answers and summaries of
 * each handler's `@AdminOperation`. It depends on the code only, never on the installation (no roles, users,
 * settings or version), so it can be served without a token; it has no `servers`: the
 * controller adds the one each request reached.
 */
export function buildAdminOpenApiDocument(routes: readonly AdminRoute[]): OpenApiDocument {
  const schemas: Record<string, JsonObject> = { Error: errorSchema(), ...adminAnswerSchemas() };
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    const notes = route.notes;
    const operation: JsonObject = {
      operationId: route.operationId,
      tags: [tagOf(route.path)],
      ...(notes ? { summary: notes.summary } : {}),
      description: [notes?.description, whoMayCall(route)].filter(Boolean).join(' '),
      'x-tessera-admin-role': route.isPublic ? null : route.role,
    };
    const parameters = parametersOf(route);
    if (parameters.length > 0) operation.parameters = parameters;
    if (route.body) {
      const name = schemaNameOf(route.body);
      if (schemas[name] !== undefined && schemas[name].title !== route.body.name) {
        throw new Error(`The admin OpenAPI document has two schemas named ${name}: rename the DTO ${route.body.name}.`);
      }
      schemas[name] = { title: route.body.name, ...dtoSchema(route.body) };
      operation.requestBody = { required: true, content: jsonContent(ref('schemas', name)) };
    }
    operation.responses = {
      [String(route.status)]: successOf(route, notes?.answer),
      ...errorRefs(...errorStatuses(route, notes?.errors ?? [])),
    };
    if (route.isPublic) operation.security = [];
    paths[route.path] = { ...paths[route.path], [route.method]: operation };
  }
  const tags = [...new Set(routes.map((route) => tagOf(route.path)))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tessera admin API',
      version: 'v1',
      description:
        'Manage admin accounts, the built-in users, API tokens, and read the roles, the provider and the audit trail. ' +
        'Sign in at POST /admin/v1/@authentication and send the key as "Authorization: Bearer <apikey>". Admin tokens ' +
        'open only this API; API tokens never open it. Every error is {statusCode, errorCode, errorMessage}.',
    },
    security: [{ [ADMIN_TOKEN_SCHEME]: [] }],
    tags,
    paths,
    components: {
      schemas,
      responses: errorResponses(),
      parameters: {},
      securitySchemes: {
        [ADMIN_TOKEN_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An admin token from POST /admin/v1/@authentication. No token: 401 / 4010; unknown or ended: 4011; expired: 4012. ' +
            'An auditor token on an endpoint that needs the role admin: 403 / 4030.',
        },
      },
    },
  };
}
