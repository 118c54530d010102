import type { Resource } from '../data/resource-registry.js';
import { ExtensionRoutes, type ExtensionDemand } from '../security/extension-routes.js';
import type { FunctionRegistry } from './functions/function-registry.js';
import type { SqlEndpoints } from './sql-endpoints.js';

/** LAC's resource types of the resources that are not tables (`resource_type` in `@resources`). */
export type ExtensionResourceType = 'JavaScript' | 'FreeSQL' | 'StoredProcedure';

/** What `@resources` says of a resource that is not a table: a function resource, a SQL resource, a procedure. */
export interface ExtensionResource {
  name: string;
  type: ExtensionResourceType;
  description: string | undefined;
  /** The table its rows come from, when it says (a function resource's `rows`). */
  table: Resource | undefined;
  /** Its rows' attributes, when it says. */
  attributes: readonly string[];
  parameters: ReadonlyArray<{ name: string; type: string; required: boolean }>;
  methods: readonly string[];
}

/**
 * Every extension of the project, whatever its kind, in one place: which one a request on a resource route
 * addresses (RolesGuard's `ExtensionRoutes`: the functions' routes first, then the SQL resources' and procedures'
 * names), the names request and response events may filter on, and the resources `@resources` lists.
 */
export class ExtensionDirectory extends ExtensionRoutes {
  constructor(
    private readonly functions: FunctionRegistry,
    private readonly sql: SqlEndpoints,
  ) {
    super();
  }

  demandOf(request: { method?: string; params?: Record<string, string | undefined> }): ExtensionDemand | undefined {
    return this.functions.demandOf(request) ?? this.sql.demandOf(request);
  }

  /**
   * The names events' `resources` may use for extensions: a function resource's, SQL resource's or procedure's own,
   * and a table's function as `<table>/<function>` (both its row and its resource form).
   */
  eventNames(): string[] {
    return [
      ...this.functions.functions.map((f) => `${f.table.name}/${f.definition.name}`),
      ...this.functions.functionResources.map((r) => r.definition.name),
      ...this.sql.sqlResources.resources.map((r) => r.name),
      ...this.sql.procedures.map((p) => p.name),
    ];
  }

  /** The resources that are not tables, for `@resources`: function resources, SQL resources, the procedures served here. */
  resources(): ExtensionResource[] {
    return [
      ...this.sql.sqlResources.resources.map((r): ExtensionResource => ({
        name: r.name,
        type: 'FreeSQL',
        description: r.description,
        table: undefined,
        attributes: [],
        parameters: Object.entries(r.parameters).map(([name, p]) => ({ name, type: p.type, required: p.required === true })),
        methods: ['GET'],
      })),
      ...this.sql.procedures.map((p): ExtensionResource => ({
        name: p.name,
        type: 'StoredProcedure',
        description: p.description,
        table: undefined,
        attributes: [],
        parameters: p.arguments.map((a) => ({ name: a.name, type: a.definition.type, required: a.definition.required === true })),
        methods: ['GET', 'POST'],
      })),
      ...this.functions.functionResources.map((r): ExtensionResource => ({
        name: r.definition.name,
        type: 'JavaScript',
        description: r.definition.description,
        table: r.rows?.table,
        attributes: r.rows?.columns ?? [],
        parameters: Object.entries(r.definition.parameters ?? {}).map(([name, p]) => ({
          name,
          type: p.type,
          required: p.required === true,
        })),
        methods: r.methods,
      })),
    ];
  }
}
