import { AdminAccount } from './admin/admin-account.entity.js';
import { AdminAuditEntry } from './admin-api/admin-audit-entry.entity.js';
import { AdminToken } from './admin/admin-token.entity.js';
import type { SchemaParts } from './database/connection/data-source-options.js';
import { LoginAttemptCounter } from './database/schema/login-attempt.entity.js';
import { LoginLease } from './database/schema/login-lease.entity.js';
import { systemMigrations } from './database/migrations/system-migrations.js';
import { TesseraMeta } from './database/schema/tessera-meta.entity.js';
import type { ProjectDefinition } from './project-definition.js';
import { ApiToken } from './tokens/api-token.entity.js';
import { User } from './users/user.entity.js';

/** Entities of Tessera's own tables (tokens, users, admin, ...); each feature adds its own here. */
export const systemEntities: Function[] = [
  TesseraMeta,
  User,
  ApiToken,
  LoginAttemptCounter,
  LoginLease,
  AdminAccount,
  AdminToken,
  AdminAuditEntry,
];

/**
 * Every table a service with this project has: Tessera's own, then the project's, with their
 * migrations in the same order. Composed here, at the root, since Tessera's own entities live
 * in the features that own them, above the database layer that opens the connection.
 */
export function schemaOf(project: Pick<ProjectDefinition, 'entities' | 'migrations'>): SchemaParts {
  return {
    entities: [...systemEntities, ...project.entities],
    migrations: [...systemMigrations, ...(project.migrations as Function[])],
  };
}
