import { Module, type DynamicModule } from '@nestjs/common';
import { PROJECT_ENTITIES } from './data/data.module.js';
import { PROJECT_RULES } from './logic/logic.module.js';
import type { ProjectDefinition } from './project-definition.js';
import { PROJECT_RESOURCES, PROJECT_TABLE_QUERIES, PROJECT_VERSIONS } from './documents/levels/custom-resources.module.js';
import { PROJECT_ROLES } from './security/security.module.js';
import { PROJECT_NAMED_ENDPOINTS, type NamedEndpoint } from './security/named-endpoints.js';
import { SEED_USERS } from './users/seed-user.js';
import { PROJECT_EVENTS } from './extensions/events/api-events.module.js';
import { PROJECT_PROCEDURES, PROJECT_SQL_RESOURCES } from './extensions/sql-endpoints.module.js';
import { PROJECT_FUNCTION_RESOURCES, PROJECT_FUNCTIONS } from './extensions/functions/functions.module.js';
import { functionResourceEndpoints } from './extensions/functions/function-registry.js';

/**
 * Hands the team's project to the modules that need it, each part under the token its module
 * declares: the entities (DataModule), rules (LogicModule), roles (SecurityModule), custom
 * resources and tables' named queries (CustomResourcesModule) and seed users (UsersModule). The engine never imports the
 * project or its definition's type; CoreModule makes these tokens available everywhere.
 */
/**
 * The project's resources that are not tables (function resources, SQL resources, procedures), which
 * roles grant by name: each kind of extension lists its own here.
 */
export function namedEndpointsOf(project: ProjectDefinition): NamedEndpoint[] {
  return [
    ...(project.sqlResources ?? []).map((r) => ({
      name: r.name,
      kind: 'SQL resource',
      explicitGrantOnly: false,
      operations: ['READ'] as const,
    })),
    // Every declared procedure, served on this database or not: a role may name one the database at hand lacks.
    ...(project.procedures ?? []).map((p) => ({
      name: p.name,
      kind: 'procedure',
      explicitGrantOnly: true,
      operations: ['READ', 'INSERT'] as const,
    })),
    ...functionResourceEndpoints(project.functionResources),
  ];
}

@Module({})
export class ProjectModule {
  static forRoot(project: ProjectDefinition): DynamicModule {
    const parts = [
      { provide: PROJECT_ENTITIES, useValue: project.entities },
      { provide: PROJECT_RULES, useValue: project.rules ?? [] },
      { provide: PROJECT_ROLES, useValue: project.roles },
      { provide: PROJECT_NAMED_ENDPOINTS, useValue: namedEndpointsOf(project) },
      { provide: PROJECT_RESOURCES, useValue: project.resources ?? [] },
      { provide: PROJECT_TABLE_QUERIES, useValue: project.tableQueries ?? {} },
      { provide: PROJECT_VERSIONS, useValue: project.versions },
      { provide: PROJECT_EVENTS, useValue: project.events ?? {} },
      { provide: SEED_USERS, useValue: project.seedUsers ?? [] },
      { provide: PROJECT_SQL_RESOURCES, useValue: project.sqlResources ?? [] },
      { provide: PROJECT_PROCEDURES, useValue: project.procedures ?? [] },
      { provide: PROJECT_FUNCTIONS, useValue: project.functions ?? [] },
      { provide: PROJECT_FUNCTION_RESOURCES, useValue: project.functionResources ?? [] },
    ];
    return { module: ProjectModule, providers: parts, exports: parts.map((part) => part.provide) };
  }
}
