import type { Resource, ResourceRegistry } from '../../data/resource-registry.js';
import { isKeyless } from '../../data/resource-registry.js';
import { levelsFrom, type CustomResourceRegistry } from '../../documents/levels/custom-resource-registry.js';
import { extensionMethodOf, OPERATION_OF_METHOD, type ExtensionDemand, type ExtensionMethod } from '../../security/extension-routes.js';
import type { NamedEndpoint } from '../../security/named-endpoints.js';
import { OPERATIONS, type Operation, type RolesDefinition } from '../../security/role-definition.js';
import type { FunctionDefinition, FunctionResourceDefinition, FunctionResourceHandler } from './function-definition.js';
import { parameterProblems } from './function-parameters.js';

/** The project's functions or function resources are invalid: every problem, one a line. */
export class FunctionsError extends Error {
  constructor(readonly problems: string[]) {
    super(`The functions and function resources in the project are invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'FunctionsError';
  }
}

/** A function's or function resource's name: a URL segment without encoding. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** Parameters the endpoints take themselves: no extension may declare them. */
export const RESERVED_PARAMETERS: ReadonlySet<string> = new Set(['auth']);
export const PAGE_PARAMETERS: ReadonlySet<string> = new Set(['auth', 'pagesize', 'offset']);
/** The longest time limit an extension may declare: longer than any client waits. */
const MAX_TIMEOUT_MS = 120_000;

type Method = ExtensionMethod;

/** What RolesGuard admitted a request to: the demand it judged, and the extension and method that answer it. */
export class FunctionDemand implements ExtensionDemand {
  constructor(
    readonly label: string,
    readonly operation: Operation,
    readonly operations: readonly Operation[],
    readonly methods: readonly string[],
    readonly target: TableFunction | FunctionResource,
    readonly method: Method,
    readonly table?: Resource,
    readonly endpoint?: NamedEndpoint,
    readonly roles?: readonly string[],
  ) {}
}

/** A row or resource function of a table, checked. */
export interface TableFunction {
  kind: 'function';
  definition: FunctionDefinition;
  table: Resource;
  label: string;
  methods: readonly Method[];
}

/** A function resource, checked. */
export interface FunctionResource {
  kind: 'function resource';
  definition: FunctionResourceDefinition;
  endpoint: NamedEndpoint;
  label: string;
  methods: readonly Method[];
  handlers: ReadonlyMap<Method, FunctionResourceHandler>;
  /** The table its rows come from and the columns they hold (`rows`), for `@docs`. */
  rows?: { table: Resource; columns: readonly string[] };
}

interface Routes {
  rowFunctions: Map<string, TableFunction>;
  resourceFunctions: Map<string, TableFunction>;
  functionResource?: FunctionResource;
}

/** The named endpoints roles grant: one per function resource (ProjectModule hands them to the role bank). */
export function functionResourceEndpoints(definitions: readonly FunctionResourceDefinition[] | undefined): NamedEndpoint[] {
  return (definitions ?? []).map((d) => ({ name: d.name, kind: 'function resource', explicitGrantOnly: d.explicitGrantOnly === true }));
}

/**
 * The project's functions (`<table>/<key>/<name>`, `<table>/<name>`) and function resources (`<name>`), checked
 * at boot against the tables, the custom resources and the roles (one `FunctionsError` listing every problem),
 * and found for RolesGuard by the request's route (through `ExtensionDirectory`): one map lookup, none when there are none.
 */
export class FunctionRegistry {
  readonly functions: readonly TableFunction[];
  readonly functionResources: readonly FunctionResource[];
  private readonly routes = new Map<string, Routes>();
  private readonly demands = new WeakMap<TableFunction | FunctionResource, Map<string, FunctionDemand>>();

  constructor(
    functions: readonly FunctionDefinition[],
    resources: readonly FunctionResourceDefinition[],
    tables: ResourceRegistry,
    custom: Pick<CustomResourceRegistry, 'resources'>,
    roles: RolesDefinition,
  ) {
    const problems: string[] = [];
    const roleNames = new Set(roles.roles.map((r) => r.name));
    this.functions = functions.flatMap((d, i) => this.checkFunction(d, i, tables, roleNames, problems));
    const names = new Set<string>();
    this.functionResources = resources.flatMap((d, i) => this.checkResource(d, i, tables, custom, names, problems));
    this.checkFunctionLevels(custom, problems);
    if (problems.length > 0) throw new FunctionsError(problems);
  }

  /** The function resource of this name (case-insensitively). */
  functionResource(name: string): FunctionResource | undefined {
    const lower = name.toLowerCase();
    return this.functionResources.find((r) => r.definition.name.toLowerCase() === lower);
  }

  /** Every custom resource level's function sub-resources name a function resource (each answers GET) that takes their parameters. */
  private checkFunctionLevels(custom: Pick<CustomResourceRegistry, 'resources'>, problems: string[]): void {
    for (const level of custom.resources.flatMap((r) => levelsFrom(r.root))) {
      for (const sub of level.functionLevels) {
        const where = `custom resource ${level.path}, function sub-resource "${sub.name}"`;
        const resource = this.functionResource(sub.functionResource);
        if (!resource) {
          problems.push(`${where}: no function resource is called ${sub.functionResource}`);
          continue;
        }
        const declared = resource.definition.parameters ?? {};
        for (const { parameter } of sub.parameters) {
          if (!Object.hasOwn(declared, parameter)) {
            problems.push(`${where}: the function resource ${resource.definition.name} declares no parameter ${parameter}`);
          }
        }
      }
    }
  }

  get size(): number {
    return this.routes.size;
  }

  demandOf(request: { method?: string; params?: Record<string, string | undefined> }): FunctionDemand | undefined {
    if (this.routes.size === 0) return undefined;
    const params = request.params;
    const name = params?.resource;
    const routes = name === undefined ? undefined : this.routes.get(name.toLowerCase());
    if (!routes) return undefined;
    const target =
      params!.attribute !== undefined
        ? routes.rowFunctions.get(params!.attribute.toLowerCase())
        : params!.pk !== undefined
          ? routes.resourceFunctions.get(params!.pk.toLowerCase())
          : routes.functionResource;
    return target && this.demand(target, extensionMethodOf(request.method));
  }

  /** A function resource's GET, as a custom resource level's function sub-resource calls it. */
  readDemand(resource: FunctionResource): FunctionDemand {
    return this.demand(resource, 'GET');
  }

  /** One demand per extension and method, made once. */
  private demand(target: TableFunction | FunctionResource, method: string): FunctionDemand {
    let byMethod = this.demands.get(target);
    if (!byMethod) this.demands.set(target, (byMethod = new Map<string, FunctionDemand>()));
    let demand = byMethod.get(method);
    if (!demand) {
      const answered = (target.methods as readonly string[]).includes(method) ? (method as Method) : 'GET';
      demand =
        target.kind === 'function'
          ? new FunctionDemand(
              target.label,
              tableFunctionOperation(target, answered),
              target.methods.map((m) => tableFunctionOperation(target, m)),
              target.methods,
              target,
              answered,
              target.table,
              undefined,
              target.definition.roles,
            )
          : new FunctionDemand(
              target.label,
              OPERATION_OF_METHOD[answered],
              target.methods.map((m) => OPERATION_OF_METHOD[m]),
              target.methods,
              target,
              answered,
              undefined,
              target.endpoint,
            );
      byMethod.set(method, demand);
    }
    return demand;
  }

  private routesOf(name: string): Routes {
    const key = name.toLowerCase();
    let routes = this.routes.get(key);
    if (!routes) this.routes.set(key, (routes = { rowFunctions: new Map(), resourceFunctions: new Map() }));
    return routes;
  }

  private checkFunction(
    definition: FunctionDefinition,
    index: number,
    tables: ResourceRegistry,
    roleNames: ReadonlySet<string>,
    problems: string[],
  ): TableFunction[] {
    // Typed data, but a project written in JavaScript (or cast) may hold anything.
    const d = definition as Partial<FunctionDefinition> | null;
    const where = `function ${typeof d?.name === 'string' ? `"${d.name}"` : `#${index + 1}`}`;
    if (d === null || typeof d !== 'object') {
      problems.push(`${where}: must be an object`);
      return [];
    }
    const before = problems.length;
    if (typeof d.name !== 'string' || !NAME.test(d.name))
      problems.push(`${where}: a name is letters, digits and _ (not first), at most 64`);
    if (d.kind !== 'row' && d.kind !== 'resource') problems.push(`${where}: kind must be 'row' or 'resource'`);
    if (typeof d.run !== 'function') problems.push(`${where}: run must be a function`);
    const table = tables.resources.find((r) => r.target === d.entity);
    if (!table) problems.push(`${where}: entity is not a table of the project (give one of its entity classes)`);
    for (const role of d.roles ?? []) if (!roleNames.has(role)) problems.push(`${where}: no role named "${role}"`);
    if (d.roles !== undefined && (!Array.isArray(d.roles) || d.roles.length === 0))
      problems.push(`${where}: roles must be a list of role names`);
    if (d.access !== undefined && !OPERATIONS.includes(d.access)) problems.push(`${where}: access must be one of ${OPERATIONS.join(', ')}`);
    problems.push(...timeoutProblems(where, d.timeoutMs));
    problems.push(...parameterProblems(where, d.parameters));
    for (const name of Object.keys(d.parameters ?? {})) {
      if (RESERVED_PARAMETERS.has(name)) problems.push(`${where}: the parameter "${name}" is the API's own`);
    }
    if (table && typeof d.name === 'string') {
      if (table.view && d.writes === true)
        problems.push(`${where}: ${table.name} is a view, which is read-only: a function of it cannot write`);
      if (d.kind === 'row' && isKeyless(table))
        problems.push(`${where}: ${table.name} has no key, so its rows have no URL for a row function`);
      const routes = this.routesOf(table.name);
      const own = d.kind === 'row' ? routes.rowFunctions : routes.resourceFunctions;
      const key = d.name.toLowerCase();
      if (own.has(key)) problems.push(`${where}: ${table.name} has two ${d.kind} functions of that name (names match case-insensitively)`);
      if (d.kind === 'row' && [...table.columnsByName.keys()].some((c) => c.toLowerCase() === key)) {
        problems.push(`${where}: ${table.name} has a column of that name, whose value <${table.name}>/<key>/${d.name} already answers`);
      }
      if (problems.length === before) {
        const entry: TableFunction = {
          kind: 'function',
          definition: d as FunctionDefinition,
          table,
          label: `function ${d.name}`,
          methods: d.writes === true ? ['GET', 'POST', 'PUT'] : ['GET'],
        };
        own.set(key, entry);
        if (table.prefixedName) this.routes.set(table.prefixedName.toLowerCase(), routes);
        return [entry];
      }
    }
    return [];
  }

  private checkResource(
    definition: FunctionResourceDefinition,
    index: number,
    tables: ResourceRegistry,
    custom: Pick<CustomResourceRegistry, 'resources'>,
    names: Set<string>,
    problems: string[],
  ): FunctionResource[] {
    const d = definition as Partial<FunctionResourceDefinition> | null;
    const where = `function resource ${typeof d?.name === 'string' ? `"${d.name}"` : `#${index + 1}`}`;
    if (d === null || typeof d !== 'object') {
      problems.push(`${where}: must be an object`);
      return [];
    }
    const before = problems.length;
    if (typeof d.name !== 'string' || !NAME.test(d.name)) {
      problems.push(`${where}: a name is letters, digits and _ (not first), at most 64`);
    } else {
      const lower = d.name.toLowerCase();
      if (names.has(lower)) problems.push(`${where} is defined twice (names match case-insensitively)`);
      names.add(lower);
      if (tables.taken(d.name)) problems.push(`${where}: a table resource has that name (names match case-insensitively)`);
      if (custom.resources.some((r) => r.name.toLowerCase() === lower))
        problems.push(`${where}: a custom resource has that name (names match case-insensitively)`);
    }
    if (typeof d.get !== 'function') problems.push(`${where}: get must be a function`);
    const handlers = new Map<Method, FunctionResourceHandler>();
    for (const [method, handler] of [
      ['GET', d.get],
      ['POST', d.post],
      ['PUT', d.put],
      ['DELETE', d.delete],
    ] as const) {
      if (handler === undefined) continue;
      if (typeof handler !== 'function') problems.push(`${where}: ${method.toLowerCase()} must be a function`);
      else handlers.set(method, handler);
    }
    problems.push(...timeoutProblems(where, d.timeoutMs));
    problems.push(...parameterProblems(where, d.parameters));
    for (const name of Object.keys(d.parameters ?? {})) {
      if (PAGE_PARAMETERS.has(name)) problems.push(`${where}: the parameter "${name}" is the API's own`);
    }
    let rows: FunctionResource['rows'];
    if (d.rows !== undefined) {
      const table = tables.resources.find((r) => r.target === d.rows?.entity);
      if (!table) problems.push(`${where}: rows.entity is not a table of the project (give one of its entity classes)`);
      const columns = d.rows.attributes ?? table?.columns.map((c) => c.name) ?? [];
      for (const column of columns) {
        if (table && !table.columnsByName.has(column)) problems.push(`${where}: rows.attributes: ${table.name} has no column "${column}"`);
      }
      if (table) rows = { table, columns };
    }
    if (problems.length > before || typeof d.name !== 'string') return [];
    const entry: FunctionResource = {
      kind: 'function resource',
      definition: d as FunctionResourceDefinition,
      endpoint: { name: d.name, kind: 'function resource', explicitGrantOnly: d.explicitGrantOnly === true },
      label: `function resource ${d.name}`,
      methods: [...handlers.keys()],
      handlers,
      rows,
    };
    this.routesOf(d.name).functionResource = entry;
    return [entry];
  }
}

/** A table function's GET reads its table; its POST and PUT need the operation it declares (`access`), UPDATE when none. */
function tableFunctionOperation(target: TableFunction, method: Method): Operation {
  return method === 'GET' ? 'READ' : (target.definition.access ?? 'UPDATE');
}

function timeoutProblems(where: string, timeoutMs: unknown): string[] {
  if (timeoutMs === undefined) return [];
  return Number.isSafeInteger(timeoutMs) && (timeoutMs as number) > 0 && (timeoutMs as number) <= MAX_TIMEOUT_MS
    ? []
    : [`${where}: timeoutMs must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`];
}
