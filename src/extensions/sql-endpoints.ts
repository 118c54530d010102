import type { Principal } from '../common/principal.js';
import type { CompiledProcedure, ProcedureRegistry } from './procedures/procedure-registry.js';
import type { ProcedureService } from './procedures/procedure-service.js';
import type { SqlResourcePage, SqlResourceService } from './sql-resources/sql-resource-service.js';
import type { SqlResourceRegistry } from './sql-resources/sql-resource-registry.js';
import type { CompiledSqlResource } from './sql-resources/sql-statement.js';

/** What `<base>/<name>` is when it is the project's SQL: a SQL resource or a stored procedure. */
export type SqlEndpoint = { kind: 'SQL resource'; resource: CompiledSqlResource } | { kind: 'procedure'; procedure: CompiledProcedure };

/**
 * The project's SQL resources and stored procedures, checked at boot, for the HTTP surface: which one a name is,
 * their lists (for `@resources`, `@procedures`, `@docs`), and running them for a caller RolesGuard admitted.
 */
export class SqlEndpoints {
  constructor(
    readonly sqlResources: SqlResourceRegistry,
    readonly procedureRegistry: ProcedureRegistry,
    private readonly sql: SqlResourceService,
    private readonly calls: ProcedureService,
  ) {}

  get procedures(): readonly CompiledProcedure[] {
    return this.procedureRegistry.procedures;
  }

  find(name: string): SqlEndpoint | undefined {
    const resource = this.sqlResources.find(name);
    if (resource) return { kind: 'SQL resource', resource };
    const procedure = this.procedureRegistry.find(name);
    return procedure ? { kind: 'procedure', procedure } : undefined;
  }

  page(
    resource: CompiledSqlResource,
    principal: Principal,
    query: Readonly<Record<string, unknown>>,
    page: { pageSize: number; offset: number },
  ): Promise<SqlResourcePage> {
    return this.sql.page(resource, principal, query, page);
  }

  call(procedure: CompiledProcedure, source: 'query' | 'body', given: unknown): Promise<Array<Array<Record<string, unknown>>>> {
    return this.calls.call(procedure, this.calls.argumentsOf(procedure, source, given));
  }
}
