import type { Principal } from '../common/principal.js';
import { NameLookup } from '../database/name-lookup.js';
import { extensionMethodOf, OPERATION_OF_METHOD, type ExtensionDemand, type ExtensionMethod } from '../security/extension-routes.js';
import type { NamedEndpoint } from '../security/named-endpoints.js';
import type { Operation } from '../security/role-definition.js';
import type { CompiledProcedure, ProcedureRegistry } from './procedures/procedure-registry.js';
import type { ProcedureService } from './procedures/procedure-service.js';
import type { SqlResourcePage, SqlResourceService } from './sql-resources/sql-resource-service.js';
import type { SqlResourceRegistry } from './sql-resources/sql-resource-registry.js';
import type { CompiledSqlResource } from './sql-resources/sql-statement.js';

/** What `<base>/<name>` is when it is the project's SQL: a SQL resource or a stored procedure. */
export type SqlEndpoint = { kind: 'SQL resource'; resource: CompiledSqlResource } | { kind: 'procedure'; procedure: CompiledProcedure };

/** The methods of each operation a named endpoint answers. */
const METHOD_OF: Readonly<Record<Operation, ExtensionMethod>> = { READ: 'GET', INSERT: 'POST', UPDATE: 'PUT', DELETE: 'DELETE' };

/**
 * A request RolesGuard is to judge on a SQL resource or a procedure (`<base>/<name>`): the role grant of its named
 * endpoint decides. `served` is undefined for a procedure this database does not serve (roles may name it still).
 */
export class SqlEndpointDemand implements ExtensionDemand {
  readonly label: string;
  readonly operation: Operation;
  readonly operations: readonly Operation[];
  readonly methods: readonly ExtensionMethod[];

  constructor(
    readonly endpoint: NamedEndpoint,
    readonly served: SqlEndpoint | undefined,
    readonly method: ExtensionMethod,
  ) {
    this.label = `${endpoint.kind} ${endpoint.name}`;
    this.operations = endpoint.operations ?? ['READ'];
    this.methods = this.operations.map((operation) => METHOD_OF[operation]);
    this.operation = OPERATION_OF_METHOD[method];
  }
}

/**
 * The project's SQL resources and stored procedures, checked at boot, for the HTTP surface: which one a request
 * addresses (`demandOf`), their lists (for `@resources`, `@procedures`, `@docs`), and running them for a caller
 * RolesGuard admitted.
 */
export class SqlEndpoints {
  /** Per name, the demand of each method, made once. */
  private readonly demands = new NameLookup<Map<string, SqlEndpointDemand>>();

  constructor(
    readonly sqlResources: SqlResourceRegistry,
    readonly procedureRegistry: ProcedureRegistry,
    private readonly sql: SqlResourceService,
    private readonly calls: ProcedureService,
    /** The named endpoints of the SQL resources and of every declared procedure, served here or not. */
    private readonly named: readonly NamedEndpoint[],
  ) {
    for (const endpoint of named) {
      const served = this.find(endpoint.name);
      const byMethod = new Map<string, SqlEndpointDemand>();
      for (const method of ['GET', 'POST', 'PUT', 'DELETE'] as const) byMethod.set(method, new SqlEndpointDemand(endpoint, served, method));
      this.demands.set(endpoint.name, byMethod);
    }
  }

  /** The SQL resource or procedure `<base>/<name>` addresses (never one with a key: that is no endpoint at all). */
  demandOf(request: { method?: string; params?: Record<string, string | undefined> }): SqlEndpointDemand | undefined {
    if (this.named.length === 0) return undefined;
    const params = request.params;
    if (params?.resource === undefined || params.pk !== undefined) return undefined;
    return this.demands.get(params.resource)?.get(extensionMethodOf(request.method));
  }

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
