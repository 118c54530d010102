import type { Principal } from '../common/principal.js';
import type { GlobalValue } from '../common/global-values.js';
import { compileFilter, FALSE_PREDICATE } from '../data/query/sql-compiler.js';
import type { ColumnResolver, ParameterSink } from '../data/query/compile-context.js';
import { RegistryColumnResolver } from '../data/column-resolver.js';
import type { Resource, ResourceRegistry } from '../data/resource-registry.js';
import type { Dialect } from '../database/dialect.js';
import type { Grant, RoleBank } from './role-bank.js';
import { USER_IDENTIFIER_GLOBAL, type Operation } from './role-definition.js';

/** Compiles SQL for the resource's table (alias `t`) with the caller's parameter list. */
export interface SqlContext {
  columns: ColumnResolver;
  params: ParameterSink;
  dialect: Dialect;
}

/**
 * The context role filters compile in: they may name any column of the table and its parents
 * (they are the project's, not the caller's), on the table alias `alias`.
 */
export function roleFilterSql(
  resource: Resource,
  registry: ResourceRegistry,
  dialect: Dialect,
  params: ParameterSink,
  alias = 't',
): SqlContext {
  return { columns: new RegistryColumnResolver(resource, registry, dialect, undefined, alias), params, dialect };
}

/**
 * What one principal may do on one resource: the union of its roles' grants. Row filters
 * compile to SQL with the principal's globals as bound parameters.
 */
export class ResourceAccess {
  private constructor(
    readonly resource: Resource,
    readonly grants: readonly Grant[],
    /**
     * The caller's role names, as one text: two accesses with the same text have the same grants on every
     * resource (roles are fixed at boot), so what depends on grants alone may be kept per text.
     */
    readonly rolesKey: string,
    private readonly globals: Record<string, GlobalValue>,
    /** How to build the same principal's access to another resource (a parent named in a path). */
    private readonly accessOf: (other: Resource) => ResourceAccess,
  ) {}

  static of(bank: RoleBank, principal: Principal, resource: Resource): ResourceAccess {
    const grants: Grant[] = [];
    const names = new Set(principal.roleNames);
    for (const name of names) {
      const role = bank.get(name);
      if (!role) continue; // a token may outlive a role; an unknown role grants nothing
      const defaults = resource.view ? role.defaultViewOperations : role.defaultOperations;
      const grant = role.grants.get(resource.name) ?? (defaults.size > 0 ? { role: role.name, operations: defaults } : undefined);
      if (grant && grant.operations.size > 0) grants.push(grant);
    }
    return new ResourceAccess(
      resource,
      grants,
      [...names].join('\n'),
      { ...principal.globals, [USER_IDENTIFIER_GLOBAL]: principal.userIdentifier },
      (other) => ResourceAccess.of(bank, principal, other),
    );
  }

  /** Full rights, for work done by the system (rules) rather than a caller. */
  static system(resource: Resource): ResourceAccess {
    return new ResourceAccess(
      resource,
      [{ role: '(system)', operations: new Set(['READ', 'INSERT', 'UPDATE', 'DELETE']) }],
      '(system)',
      {},
      (other) => ResourceAccess.system(other),
    );
  }

  /** The same principal's access to another resource. */
  to(other: Resource): ResourceAccess {
    return other === this.resource ? this : this.accessOf(other);
  }

  /**
   * The READ grants under which `column` is readable, when only some rows show it: its value
   * may then be used only where one of these grants admits the row. Undefined when every row
   * this access reads shows it (`everyRow`: every row of the table, as for a parent, rather
   * than only the rows some READ grant admits); an empty list when no row does.
   */
  columnGrants(column: string, everyRow: boolean): readonly Grant[] | undefined {
    const reads = this.grantsFor('READ');
    const showing = reads.filter((g) => !g.readColumns || g.readColumns.has(column));
    if (showing.some((g) => !g.filter)) return undefined;
    if (!everyRow && showing.length === reads.length && showing.length > 0) return undefined;
    return showing;
  }

  /** The OR of the grants' row filters, compiled for `sql` (false for none). */
  grantsPredicate(grants: readonly Grant[], sql: SqlContext): string {
    if (grants.length === 0) return FALSE_PREDICATE;
    return `(${grants.map((g) => this.grantPredicate(g, sql)).join(' OR ')})`;
  }

  can(operation: Operation): boolean {
    return this.grants.some((g) => g.operations.has(operation));
  }

  grantsFor(operation: Operation): Grant[] {
    return this.grants.filter((g) => g.operations.has(operation));
  }

  /** Columns readable through any READ grant; undefined means all. */
  readable(): ReadonlySet<string> | undefined {
    return unionOf(this.grantsFor('READ'), (g) => g.readColumns);
  }

  /** Columns writable through any grant of the operation; undefined means all. */
  writable(operation: 'INSERT' | 'UPDATE'): ReadonlySet<string> | undefined {
    return unionOf(this.grantsFor(operation), (g) => g.writeColumns);
  }

  /** True when READ grants differ in columns and some are row-filtered: visibility is then decided row by row. */
  get columnsVaryByRow(): boolean {
    const reads = this.grantsFor('READ');
    if (reads.length < 2 || !reads.some((g) => g.filter)) return false;
    const key = (g: Grant): string => (g.readColumns ? [...g.readColumns].sort().join(',') : '*');
    return new Set(reads.map(key)).size > 1;
  }

  /** True when some grant for the operation has no row filter: every row qualifies, no SQL needs asking. */
  coversEveryRow(operation: Operation): boolean {
    return this.grantsFor(operation).some((g) => !g.filter);
  }

  /**
   * The SQL condition a row must meet for the operation: the OR of the grants' row filters;
   * undefined when some grant has none (every row qualifies); false when no grant applies.
   */
  rowPredicate(operation: Operation, sql: SqlContext): string | undefined {
    const grants = this.grantsFor(operation);
    if (grants.length === 0) return FALSE_PREDICATE;
    if (this.coversEveryRow(operation)) return undefined;
    return this.grantsPredicate(grants, sql);
  }

  /** The SQL condition of one grant (true when it has no filter). */
  grantPredicate(grant: Grant, sql: SqlContext): string {
    if (!grant.filter) return '(1=1)';
    return compileFilter(grant.filter, { ...sql, globals: this.globals });
  }

  /** Columns readable in a row, given which READ grants admit it. */
  readableIn(admitting: readonly Grant[]): ReadonlySet<string> | undefined {
    return unionOf(admitting, (g) => g.readColumns);
  }
}

function unionOf(grants: readonly Grant[], pick: (g: Grant) => ReadonlySet<string> | undefined): ReadonlySet<string> | undefined {
  if (grants.length === 0) return new Set();
  const union = new Set<string>();
  for (const grant of grants) {
    const columns = pick(grant);
    if (!columns) return undefined;
    for (const c of columns) union.add(c);
  }
  return union;
}
