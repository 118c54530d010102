import type { Operation } from './role-definition.js';

/**
 * A resource of the project's that is not a table: a function resource, a SQL resource, a stored
 * procedure. Roles grant it by name in their `resources`, like a table, with `access` alone (it has
 * no columns or rows of a table for `readColumns`, `writeColumns` or `rowFilter` to name).
 */
export interface NamedEndpoint {
  /** Its name in the URL (`<base>/<name>`) and in roles' `resources`; matched case-insensitively. */
  name: string;
  /** What it is, for messages: `function resource`, `SQL resource`, `procedure`. */
  kind: string;
  /**
   * True when only a role that names it may use it: a role's `defaultAccess` does not reach it (a
   * stored procedure runs with the database user's rights, not the caller's).
   */
  explicitGrantOnly: boolean;
  /** The operations it answers (GET is READ, POST INSERT, …); another is 405 with the methods it takes. Default READ alone. */
  operations?: readonly Operation[];
}

/** Injection token of the project's named endpoints (ProjectModule provides the list). */
export const PROJECT_NAMED_ENDPOINTS = Symbol('PROJECT_NAMED_ENDPOINTS');
