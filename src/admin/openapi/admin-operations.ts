import { ref, type JsonObject } from '../../common/openapi/openapi-types.js';
import { pageOf } from './admin-schemas.js';

/**
 * What the route metadata cannot say about an admin endpoint: a summary, the answer's schema (none
 * for a 204) and the errors beyond the ones every endpoint of its kind may give (see adminErrorStatuses).
 */
export interface OperationNotes {
  summary: string;
  description?: string;
  answer?: JsonObject;
  /** Error statuses this endpoint adds: 404 for a named thing that is not there, 409 for a conflict. */
  errors?: number[];
}

/** `METHOD /path` (OpenAPI's path form) → its notes. An admin route without notes fails the admin OpenAPI test. */
export const ADMIN_OPERATIONS: Readonly<Record<string, OperationNotes>> = {
  'POST /admin/v1/@authentication': {
    summary: 'Sign in as an admin',
    description:
      'Each sign-in makes a new admin token (lifetime TOKEN_LIFETIME_SECONDS). Failed sign-ins are throttled with the ' +
      "account's and the address's other failures.",
    answer: ref('schemas', 'AdminLoginAnswer'),
    errors: [401, 429],
  },
  'GET /admin/v1/openapi.json': {
    summary: 'This document',
    description: 'The OpenAPI 3.1 description of the admin API. It is the same for every installation of this Tessera version.',
    answer: { type: 'object', description: 'An OpenAPI 3.1 document.' },
  },
  'GET /admin/v1/@me': { summary: 'The signed-in admin', answer: ref('schemas', 'AdminSelf') },
  'PUT /admin/v1/@me/password': {
    summary: "Change one's own password",
    description:
      'The current password is checked like a sign-in (wrong: 401 / 4013, throttled: 429 / 4290). The token of this ' +
      "request keeps working; the account's other tokens end.",
    errors: [429],
  },
  'GET /admin/v1/admins': { summary: 'List admin accounts', answer: pageOf('AdminAccount') },
  'POST /admin/v1/admins': {
    summary: 'Create an admin account',
    description: 'A user name taken in any case is 409 / 4091.',
    answer: ref('schemas', 'AdminAccount'),
    errors: [409],
  },
  'GET /admin/v1/admins/{username}': { summary: 'One admin account', answer: ref('schemas', 'AdminAccount'), errors: [404] },
  'PATCH /admin/v1/admins/{username}': {
    summary: "Change an admin account's role",
    description: 'Its tokens keep working, with the new role. The last admin cannot be demoted (409 / 4094).',
    answer: ref('schemas', 'AdminAccount'),
    errors: [404, 409],
  },
  'PUT /admin/v1/admins/{username}/password': {
    summary: "Reset an admin account's password",
    description: "Every token of the account ends (the caller's own too, when it resets itself).",
    errors: [404],
  },
  'DELETE /admin/v1/admins/{username}': {
    summary: 'Delete an admin account',
    description: 'Its tokens end at once. The last admin cannot be deleted (409 / 4094).',
    errors: [404, 409],
  },
  'GET /admin/v1/audit': { summary: 'The audit trail of admin changes, newest first', answer: pageOf('AuditEntry') },
  'GET /admin/v1/users': { summary: 'List users of the built-in provider', answer: pageOf('User') },
  'POST /admin/v1/users': {
    summary: 'Create a user',
    description: 'Roles must be among the project’s; a login taken is 409 / 4091.',
    answer: ref('schemas', 'User'),
    errors: [409],
  },
  'GET /admin/v1/users/{login}': { summary: 'One user', answer: ref('schemas', 'User'), errors: [404] },
  'PATCH /admin/v1/users/{login}': {
    summary: 'Change a user',
    description:
      "The user's login tokens work with the new roles and globals from their next request; active: false also disables " +
      'them. null clears email and keyLifetimeSeconds.',
    answer: ref('schemas', 'User'),
    errors: [404],
  },
  'PUT /admin/v1/users/{login}/password': {
    summary: "Reset a user's password",
    description: "The user's tokens are disabled.",
    errors: [404],
  },
  'DELETE /admin/v1/users/{login}': { summary: 'Delete a user', description: "The user's tokens are disabled.", errors: [404] },
  'GET /admin/v1/tokens': { summary: 'List API tokens, login-made ones included', answer: pageOf('Token') },
  'POST /admin/v1/tokens': {
    summary: 'Create a token by hand',
    description:
      'Without a key, one is generated. The key is in this answer (apikey) and never again. A chosen key already taken is ' +
      "409 / 4091; a userIdentifier that is a user's login is 400 / 4000.",
    answer: ref('schemas', 'NewToken'),
    errors: [409],
  },
  'GET /admin/v1/tokens/{id}': { summary: 'One token', answer: ref('schemas', 'Token'), errors: [404] },
  'POST /admin/v1/tokens/{id}/disable': {
    summary: 'Disable a token',
    description: 'Also a success on a token already disabled or expired (an expired token stays expired).',
    answer: ref('schemas', 'Token'),
    errors: [404],
  },
  'DELETE /admin/v1/tokens/{id}': { summary: 'Delete a token', errors: [404] },
  'GET /admin/v1/roles': {
    summary: "The project's roles",
    answer: { type: 'array', items: ref('schemas', 'Role') },
  },
  'GET /admin/v1/provider': {
    summary: 'The active authentication provider',
    description: 'Its name, module and settings, secret values blanked.',
    answer: ref('schemas', 'Provider'),
  },
};
