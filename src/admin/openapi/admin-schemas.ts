import { ADMIN_ROLES } from '../../admin-api/admin-principal.js';
import { ref, type JsonObject } from '../../common/openapi/openapi-types.js';

const str = { type: 'string' };
const strOrNull = { type: ['string', 'null'] };
const time = { type: 'string', format: 'date-time' };
const timeOrNull = { type: ['string', 'null'], format: 'date-time' };
const adminRole = { type: 'string', enum: [...ADMIN_ROLES] };
const roleNames = { type: 'array', items: str };
const globals = {
  type: 'object',
  description: 'Global values, name → value.',
  additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
};
const ACCESS = ['READ', 'INSERT', 'UPDATE', 'DELETE', 'ALL'];

/** An object schema whose every property is present in the answer. */
function answer(description: string, properties: Record<string, JsonObject>): JsonObject {
  return { type: 'object', description, required: Object.keys(properties), properties };
}

/**
 * The shapes the admin API answers with (its request bodies come from the DTOs, see dto-schema.ts).
 * Written from the views (admin-account-view.ts, users/user-view.ts, tokens/token-view.ts, …); the
 * admin OpenAPI test compares real answers with them, so a field added to a view and not here fails it.
 */
export function adminAnswerSchemas(): Record<string, JsonObject> {
  return {
    AdminLoginAnswer: answer('A new admin token: send it as "Authorization: Bearer <apikey>".', {
      apikey: str,
      expiration: time,
      role: adminRole,
    }),
    AdminSelf: answer('The signed-in admin, with its role as the account has it now.', { username: str, role: adminRole }),
    AdminAccount: answer('An admin account (never its password hash).', { username: str, role: adminRole, created: time }),
    User: answer("A built-in provider's user (never its password hash).", {
      login: str,
      roles: roleNames,
      globals,
      email: strOrNull,
      keyLifetimeSeconds: {
        type: ['integer', 'null'],
        description: "The lifetime of the user's login tokens; null: TOKEN_LIFETIME_SECONDS.",
      },
      active: { type: 'boolean' },
      lastLoginTs: timeOrNull,
      lastLoginIP: strOrNull,
      created: time,
      updated: time,
    }),
    Token: answer('An API token (never its key, nor its hash); a login token shows its user’s roles and globals.', {
      id: { type: 'integer' },
      label: str,
      userIdentifier: strOrNull,
      roles: roleNames,
      globals,
      origin: { type: 'string', enum: ['login', 'provider', 'manual'] },
      status: { type: 'string', enum: ['active', 'disabled', 'expired'] },
      expiration: { ...timeOrNull, description: 'null: never expires.' },
      created: time,
      lastUsed: { ...timeOrNull, description: 'Updated at most once a minute.' },
    }),
    NewToken: {
      description: 'The new token, with its key: this is the only answer that ever holds it.',
      allOf: [ref('schemas', 'Token'), { type: 'object', required: ['apikey'], properties: { apikey: str } }],
    },
    AuditEntry: answer('One admin change.', {
      id: { type: 'integer' },
      admin: { ...str, description: 'The admin account that made the change.' },
      action: { ...str, description: 'e.g. user.create, token.disable, admin.role.' },
      target: { ...str, description: 'e.g. user:<login>, token:<id>, admin:<username>.' },
      detail: { type: ['object', 'null'], description: 'What changed; never a password, hash or key.' },
      at: time,
    }),
    Role: {
      type: 'object',
      description: "One of the project's roles (src/project/roles.ts), read-only.",
      required: ['name', 'defaultAccess'],
      properties: {
        name: str,
        defaultAccess: { type: 'string', enum: ['ALL', 'READ', 'NONE'], description: 'Access to resources the role does not name.' },
        metaAccess: { type: 'boolean', description: 'May use @resources, @tables, @docs.' },
        resources: {
          type: 'object',
          description: 'Per resource: the verbs, a row filter, the columns it may read and write.',
          additionalProperties: {
            type: 'object',
            required: ['access'],
            properties: {
              access: { type: 'array', items: { type: 'string', enum: ACCESS } },
              rowFilter: str,
              readColumns: roleNames,
              writeColumns: roleNames,
            },
          },
        },
      },
    },
    Provider: answer('The active authentication provider.', {
      name: str,
      kind: { type: 'string', enum: ['built-in', 'custom'] },
      file: { ...strOrNull, description: 'The module, relative to the project root; null for a built-in provider.' },
      configInfo: { description: "The provider's getConfigInfo() with secret values blanked; null when it has none." },
    }),
  };
}
