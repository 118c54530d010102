import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { DataModule } from '../data/data.module.js';
import { ResourceRegistry } from '../data/resource-registry.js';
import { Database } from '../database/database.js';
import { CustomResourceRegistry } from '../documents/levels/custom-resource-registry.js';
import { CustomResourcesModule } from '../documents/levels/custom-resources.module.js';
import { PROJECT_ROLES, SecurityModule } from '../security/security.module.js';
import { PROJECT_NAMED_ENDPOINTS, type NamedEndpoint } from '../security/named-endpoints.js';
import { USER_IDENTIFIER_GLOBAL, type RolesDefinition } from '../security/role-definition.js';
import { SecurityService } from '../security/security.service.js';
import type { ProcedureDefinition } from './procedures/procedure-definition.js';
import { ProcedureRegistry } from './procedures/procedure-registry.js';
import { ProcedureService } from './procedures/procedure-service.js';
import type { SqlResourceDefinition } from './sql-resources/sql-resource-definition.js';
import { SqlDefinitionError, SqlResourceRegistry, type TakenNames } from './sql-resources/sql-resource-registry.js';
import { SqlResourceService } from './sql-resources/sql-resource-service.js';
import { SqlEndpoints } from './sql-endpoints.js';

/** Injection token of the project's SQL resources (ProjectModule provides it). */
export const PROJECT_SQL_RESOURCES = Symbol('PROJECT_SQL_RESOURCES');
/** Injection token of the project's stored procedures (ProjectModule provides it). */
export const PROJECT_PROCEDURES = Symbol('PROJECT_PROCEDURES');

/**
 * The project's SQL resources and stored procedures (`SqlEndpoints`), checked at boot against the tables, the
 * roles' globals, the custom resources' names and the database (its catalog; each SQL run once): a bad
 * definition stops the start with every problem listed.
 */
@Module({
  imports: [DataModule, SecurityModule, CustomResourcesModule],
  providers: [
    {
      provide: SqlEndpoints,
      useFactory: async (
        registry: ResourceRegistry,
        database: Database,
        custom: CustomResourceRegistry,
        security: SecurityService,
        config: AppConfig,
        roles: RolesDefinition,
        sql: SqlResourceDefinition[] | undefined,
        procedures: ProcedureDefinition[] | undefined,
        named: NamedEndpoint[] | undefined,
      ) => {
        const procedureRegistry = new ProcedureRegistry(procedures ?? [], database.dialect);
        const procedureNames = new Set(procedureRegistry.served().map((p) => p.name.toLowerCase()));
        // A custom resource of any API version: the names share one URL space in each.
        const customName = (name: string): string | undefined =>
          custom.resources.some((r) => r.name.toLowerCase() === name.toLowerCase()) ? 'custom resource' : undefined;
        const forSql: TakenNames = {
          takenBy: (name) => customName(name) ?? (procedureNames.has(name.toLowerCase()) ? 'procedure' : undefined),
        };
        const globals = [...roles.globals, USER_IDENTIFIER_GLOBAL];
        // Every problem of both kinds in one message: a SQL resource's do not hide a procedure's.
        const problems: string[] = [];
        const collect = async (check: () => Promise<void> | void): Promise<void> => {
          try {
            await check();
          } catch (error) {
            if (!(error instanceof SqlDefinitionError)) throw error;
            problems.push(...error.problems);
          }
        };
        let sqlResources: SqlResourceRegistry | undefined;
        await collect(() => {
          sqlResources = new SqlResourceRegistry(sql ?? [], registry, database.dialect, globals, forSql);
        });
        await collect(() => sqlResources?.probe(database));
        // A SQL resource of a procedure's name is reported on the SQL resource's side.
        const forProcedures: TakenNames = { takenBy: customName };
        await collect(() => procedureRegistry.check(database, registry, forProcedures));
        if (problems.length > 0 || !sqlResources) throw new SqlDefinitionError(problems);
        const timeout = config.database.statementTimeoutMs;
        return new SqlEndpoints(
          sqlResources,
          procedureRegistry,
          new SqlResourceService(registry, database, security, timeout),
          new ProcedureService(database, timeout),
          (named ?? []).filter((endpoint) => endpoint.kind === 'SQL resource' || endpoint.kind === 'procedure'),
        );
      },
      inject: [
        ResourceRegistry,
        Database,
        CustomResourceRegistry,
        SecurityService,
        APP_CONFIG,
        PROJECT_ROLES,
        { token: PROJECT_SQL_RESOURCES, optional: true },
        { token: PROJECT_PROCEDURES, optional: true },
        { token: PROJECT_NAMED_ENDPOINTS, optional: true },
      ],
    },
  ],
  exports: [SqlEndpoints],
})
export class SqlEndpointsModule {}
