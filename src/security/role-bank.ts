import { ApiError } from '../common/api-error.js';
import { RegistryColumnResolver } from '../data/column-resolver.js';
import type { FilterNode } from '../data/query/ast.js';
import { parseFilter } from '../data/query/filter-parser.js';
import { compileFilter } from '../data/query/sql-compiler.js';
import { positionalParams } from '../data/query/compile-context.js';
import type { Resource, ResourceRegistry } from '../data/resource-registry.js';
import type { Dialect } from '../database/dialect.js';
import type { NamedEndpoint } from './named-endpoints.js';
import {
  OPERATIONS,
  USER_IDENTIFIER_GLOBAL,
  type Operation,
  type ResourcePermission,
  type RoleDefinition,
  type RolesDefinition,
} from './role-definition.js';

/** What one role grants on one resource. */
export interface Grant {
  role: string;
  operations: ReadonlySet<Operation>;
  filter?: FilterNode;
  readColumns?: ReadonlySet<string>;
  writeColumns?: ReadonlySet<string>;
}

export interface CompiledRole {
  name: string;
  metaAccess: boolean;
  /** By resource name; resources the role does not name get its default access. */
  grants: ReadonlyMap<string, Grant>;
  defaultOperations: ReadonlySet<Operation>;
  /** The default access on a view, which is read-only: READ when the default has it, else nothing. */
  defaultViewOperations: ReadonlySet<Operation>;
  /** By named endpoint (`NamedEndpoint`), lower-cased: the operations the role names it with. */
  namedGrants: ReadonlyMap<string, ReadonlySet<Operation>>;
}

export class RoleBankError extends Error {
  constructor(readonly problems: string[]) {
    super(`The roles in the project are invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'RoleBankError';
  }
}

const DEFAULTS: Record<RoleDefinition['defaultAccess'], Operation[]> = { ALL: [...OPERATIONS], READ: ['READ'], NONE: [] };

function operationsOf(levels: readonly string[]): Set<Operation> {
  return new Set(levels.flatMap((level) => (level === 'ALL' ? OPERATIONS : [level as Operation])));
}

/** What of `operations` a view allows: READ alone. */
function readOnly(operations: ReadonlySet<Operation>): Set<Operation> {
  return new Set(operations.has('READ') ? (['READ'] as const) : []);
}

function globalsOf(node: FilterNode, into: Set<string>): void {
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (record.kind === 'global' && typeof record.name === 'string') into.add(record.name);
      Object.values(record).forEach(visit);
    }
  };
  visit(node);
}

/**
 * The project's roles, checked at boot against the resource registry: unknown resources,
 * columns or globals, unknown access levels and row filters that do not parse or compile
 * are all collected and reported in one `RoleBankError`.
 */
export class RoleBank {
  private readonly roles = new Map<string, CompiledRole>();

  constructor(registry: ResourceRegistry, definition: RolesDefinition, dialect: Dialect, named: readonly NamedEndpoint[] = []) {
    const problems: string[] = [];
    const knownGlobals = new Set([...definition.globals, USER_IDENTIFIER_GLOBAL]);
    const namedByLower = new Map(named.map((endpoint) => [endpoint.name.toLowerCase(), endpoint]));
    for (const role of definition.roles) {
      if (this.roles.has(role.name)) problems.push(`role "${role.name}" is defined twice`);
      if (!Object.hasOwn(DEFAULTS, role.defaultAccess)) problems.push(`role "${role.name}": defaultAccess must be ALL, READ or NONE`);
      const grants = new Map<string, Grant>();
      const namedGrants = new Map<string, ReadonlySet<Operation>>();
      for (const [resourceName, permission] of Object.entries(role.resources ?? {})) {
        const where = `role "${role.name}", resource "${resourceName}"`;
        const resource = registry.find(resourceName);
        const endpoint = resource ? undefined : namedByLower.get(resourceName.toLowerCase());
        if (endpoint) {
          this.grantNamed(endpoint, permission, where, namedGrants, problems);
          continue;
        }
        if (!resource) {
          problems.push(`${where}: no such resource`);
          continue;
        }
        if (grants.has(resource.name)) {
          problems.push(`${where}: ${resource.name} is named twice in this role (names match case-insensitively, prefixed or not)`);
          continue;
        }
        if (!Array.isArray(permission.access)) {
          problems.push(`${where}: access must be a list, e.g. ['READ']`);
          continue;
        }
        const badLevels = permission.access.filter((l) => !['READ', 'INSERT', 'UPDATE', 'DELETE', 'ALL'].includes(l));
        if (badLevels.length > 0) problems.push(`${where}: unknown access level(s) ${badLevels.join(', ')}`);
        if (resource.view) {
          // A view is read-only for everyone: a grant to write it could only mislead (ALL is READ on a view).
          const writes = permission.access.filter((l) => l === 'INSERT' || l === 'UPDATE' || l === 'DELETE');
          if (writes.length > 0)
            problems.push(
              `${where}: ${resource.name} is a view, which is read-only: grant READ (or ALL, which is READ on a view), not ${writes.join(', ')}`,
            );
          if (permission.writeColumns !== undefined)
            problems.push(`${where}: ${resource.name} is a view, which is read-only: it takes no writeColumns`);
        }
        for (const column of [...(permission.readColumns ?? []), ...(permission.writeColumns ?? [])]) {
          if (!resource.columnsByName.has(column)) problems.push(`${where}: no column "${column}"`);
        }
        let filter: FilterNode | undefined;
        if (permission.rowFilter !== undefined) {
          filter = this.checkFilter(registry, resource, permission.rowFilter, dialect, knownGlobals, where, problems);
        }
        const operations = operationsOf(permission.access);
        grants.set(resource.name, {
          role: role.name,
          operations: resource.view ? readOnly(operations) : operations,
          filter,
          readColumns: permission.readColumns ? new Set(permission.readColumns) : undefined,
          writeColumns: permission.writeColumns ? new Set(permission.writeColumns) : undefined,
        });
      }
      const defaultOperations = new Set(Object.hasOwn(DEFAULTS, role.defaultAccess) ? DEFAULTS[role.defaultAccess] : []);
      this.roles.set(role.name, {
        name: role.name,
        metaAccess: role.metaAccess ?? false,
        grants,
        defaultOperations,
        defaultViewOperations: readOnly(defaultOperations),
        namedGrants,
      });
    }
    if (problems.length > 0) throw new RoleBankError(problems);
  }

  /** A grant of a named endpoint: `access` alone (it has no table columns or rows). */
  private grantNamed(
    endpoint: NamedEndpoint,
    permission: ResourcePermission,
    where: string,
    into: Map<string, ReadonlySet<Operation>>,
    problems: string[],
  ): void {
    const key = endpoint.name.toLowerCase();
    if (into.has(key)) {
      problems.push(`${where}: ${endpoint.name} is named twice in this role (names match case-insensitively)`);
      return;
    }
    if (!Array.isArray(permission.access)) {
      problems.push(`${where}: access must be a list, e.g. ['READ']`);
      return;
    }
    const badLevels = permission.access.filter((l) => !['READ', 'INSERT', 'UPDATE', 'DELETE', 'ALL'].includes(l));
    if (badLevels.length > 0) problems.push(`${where}: unknown access level(s) ${badLevels.join(', ')}`);
    const tableOnly = (['readColumns', 'writeColumns', 'rowFilter'] as const).filter((k) => permission[k] !== undefined);
    if (tableOnly.length > 0)
      problems.push(`${where}: ${endpoint.name} is a ${endpoint.kind}: it takes access alone, not ${tableOnly.join(', ')}`);
    into.set(key, operationsOf(permission.access));
  }

  private checkFilter(
    registry: ResourceRegistry,
    resource: Resource,
    text: string,
    dialect: Dialect,
    knownGlobals: Set<string>,
    where: string,
    problems: string[],
  ): FilterNode | undefined {
    try {
      const node = parseFilter(text);
      const globals = new Set<string>();
      globalsOf(node, globals);
      const unknown = [...globals].filter((g) => !knownGlobals.has(g));
      if (unknown.length > 0)
        problems.push(
          `${where}: row filter names unknown global(s) ${unknown.map((g) => `@{${g}}`).join(', ')} (declare them in the roles' globals)`,
        );
      compileFilter(node, { columns: new RegistryColumnResolver(resource, registry, dialect), params: positionalParams(), dialect });
      return node;
    } catch (error) {
      problems.push(`${where}: row filter "${text}": ${error instanceof ApiError ? error.message : (error as Error).message}`);
      return undefined;
    }
  }

  names(): string[] {
    return [...this.roles.keys()];
  }

  get(name: string): CompiledRole | undefined {
    return this.roles.get(name);
  }
}
