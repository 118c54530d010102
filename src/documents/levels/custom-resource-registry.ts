import { RegistryColumnResolver } from '../../data/column-resolver.js';
import type { FilterNode, OrderTerm } from '../../data/query/ast.js';
import { positionalParams, type ColumnResolver, type CompileContext } from '../../data/query/compile-context.js';
import { parseFilter } from '../../data/query/filter-parser.js';
import { tokenize } from '../../data/query/lexer.js';
import { parseOrder } from '../../data/query/order-parser.js';
import { compileFilter, compileOrder } from '../../data/query/sql-compiler.js';
import { isRowKey } from '../../data/primary-key.js';
import type { ParentRelation, Resource, ResourceColumn, ResourceRegistry } from '../../data/resource-registry.js';
import type { Dialect } from '../../database/dialect.js';
import { ResourcePaths } from '../../security/resource-paths.js';
import { AttributeColumnResolver } from './attribute-column-resolver.js';
import type {
  CustomResourceDefinition,
  FunctionLevelDefinition,
  ResourceLevelDefinition,
  TableQueriesDefinition,
} from './custom-resource-definition.js';
import { parseUserFilter, type UserFilter } from './user-filters.js';

/**
 * The project's custom resources, checked and resolved once at boot (`CustomResourcesModule`).
 * Everything that serves them (nested GET, nested writes, `@resources`, `@docs`) reads this form,
 * never the definitions:
 *
 * - `registry.find('customers.orders')` → the `ResourceLevel` at that path (names case-insensitive),
 *   undefined when no custom resource has it; `registry.resources` → every `CustomResource`, in
 *   definition order; `registry.size` → how many (0: the table-only fast path).
 * - A `ResourceLevel` is one level of a document: its table (`table`, the registry's `Resource`),
 *   the attributes it shows (`attributes`: JSON name ↔ column, in order; `attributeByName`,
 *   `attributeByColumn`), its fixed `filter` (a parsed tree over column names) and `order`, its
 *   sub-levels (`subLevels`, children and parents in definition order, each with `kind` 'child'
 *   — a JSON array — or 'parent' — an object or null) and, below the root, `link`: how one of its
 *   rows joins its owner's row, as column pairs `{ owner, level }` (owner row's `owner` column
 *   equals this row's `level` column), plus the `ParentRelation` followed.
 * - Paths: `level.path` is the full path as defined ('Customers.Orders'), the URL of the level
 *   rooted there; `level.subPath` is the path below the custom resource's root ('Orders', '' at
 *   the root); `subPathFrom(level, root)` gives it relative to any level a request is rooted at,
 *   which is what per-level parameters (`filter.Orders.Lineitems`) name.
 * - `CustomResource.userFilters` / `userOrders`: the named filters (trees with placeholders, see
 *   `user-filters.ts`) and orders (over the root level's attribute names).
 *
 * Problems in the definitions (unknown entity, column or relation, an ambiguous relation,
 * duplicate names, bad filter or order syntax, attribute names clashing with each other or with
 * a sub-resource) are all collected and reported in one `CustomResourceError`.
 */
export interface LevelAttribute {
  /** The JSON property (the alias, or the column name). */
  name: string;
  column: ResourceColumn;
}

export interface LevelLink {
  owner: ResourceLevel;
  /** The many-to-one relation followed: this level's own (kind 'child') or the owner's (kind 'parent'). */
  relation: ParentRelation;
  /** Pairs joining an owner row to a row of this level: `ownerRow[owner] = levelRow[level]`. */
  columns: ReadonlyArray<{ owner: string; level: string }>;
}

export interface ResourceLevel {
  /** The JSON property in the owner's object; the custom resource's name at the root. */
  name: string;
  /** Full path, e.g. 'Customers.Orders': the URL name of the level rooted here. */
  path: string;
  /** Path below the custom resource's root, e.g. 'Orders.Lineitems'; '' at the root. */
  subPath: string;
  kind: 'root' | 'child' | 'parent';
  resource: CustomResource;
  table: Resource;
  attributes: readonly LevelAttribute[];
  attributeByName: ReadonlyMap<string, LevelAttribute>;
  attributeByColumn: ReadonlyMap<string, LevelAttribute>;
  /** The declared key's columns (see `ResourceLevelDefinition.key`); undefined: the primary key. */
  key?: readonly string[];
  /** Fixed filter, over column names; undefined when none. */
  filter?: FilterNode;
  /** Fixed order, over column names (empty when none). */
  order: readonly OrderTerm[];
  subLevels: readonly ResourceLevel[];
  /** Sub-resources a function resource answers, per object (`ResourceLevelDefinition.functions`); read-only. */
  functionLevels: readonly FunctionLevel[];
  /** Undefined at the root. */
  link?: LevelLink;
  /** A table resource's one level (`tableLevel`): filters and orders name the table's columns as the table's own do. */
  tableResource?: true;
}

/** A sub-resource answered by a function resource (checked against the function resources by `FunctionRegistry`). */
export interface FunctionLevel {
  name: string;
  functionResource: string;
  /** Each parameter and the level's attribute it is taken from. */
  parameters: ReadonlyArray<{ parameter: string; attribute: LevelAttribute }>;
}

/** A level and every level below it, depth first. */
export function levelsFrom(level: ResourceLevel): ResourceLevel[] {
  return [level, ...level.subLevels.flatMap(levelsFrom)];
}

export interface CustomResource {
  name: string;
  description?: string;
  root: ResourceLevel;
  userFilters: ReadonlyMap<string, UserFilter>;
  /** Named orders over the root level's attribute names. */
  userOrders: ReadonlyMap<string, readonly OrderTerm[]>;
  definition: CustomResourceDefinition;
}

export class CustomResourceError extends Error {
  constructor(
    readonly problems: string[],
    what = 'The custom resources in the project are invalid',
  ) {
    super(`${what}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'CustomResourceError';
  }
}

/** The project's `tableQueries` are invalid: every problem, one a line. */
export class TableQueriesError extends CustomResourceError {
  constructor(problems: string[]) {
    super(problems, "The tables' named filters and orders (tableQueries) in the project are invalid");
    this.name = 'TableQueriesError';
  }
}

/** A resource or sub-resource name: a URL path segment that needs no encoding and holds no '.'. */
const SEGMENT = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
/** An attribute name: a JSON property filters and orders can name. */
const ATTRIBUTE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** The path of `level` below `root` (a level it descends from, or itself: ''). */
export function subPathFrom(level: ResourceLevel, root: ResourceLevel): string {
  if (level === root) return '';
  return level.path.slice(root.path.length + 1);
}

export class CustomResourceRegistry extends ResourcePaths {
  /** Every custom resource, of every API version, in definition order. */
  readonly resources: readonly CustomResource[];
  /**
   * The table resources with named filters or orders (`tableQueries`): each its `tableLevel`'s
   * resource, whose `userFilters` and `userOrders` the table's GET reads, as a custom resource's.
   */
  readonly tableQueries: readonly CustomResource[];
  /** The levels every version serves (resources without `versions`), by lower-case path. */
  private readonly shared = new Map<string, ResourceLevel>();
  /** Per declared version, when some resource is a version's own: that version's levels (the shared ones included). */
  private readonly byVersion = new Map<string, Map<string, ResourceLevel>>();
  private readonly resourcesByVersion = new Map<string, readonly CustomResource[]>();
  private readonly sharedResources: readonly CustomResource[];

  constructor(
    definitions: readonly CustomResourceDefinition[],
    tables: ResourceRegistry,
    dialect: Dialect,
    tableQueries: Readonly<Record<string, TableQueriesDefinition>> = {},
    /** A table's one level (`tableLevel`, passed in: it knows this module's types). */
    tableLevel?: (table: Resource) => ResourceLevel,
    /** The API versions the project declares (`ProjectDefinition.versions`): what a resource's `versions` may name. */
    versions: readonly string[] = [],
  ) {
    super();
    const problems: string[] = [];
    const builder = new LevelBuilder(tables, dialect, problems);
    const resources: CustomResource[] = [];
    const versionsOf = new VersionTags(versions, problems);
    for (const definition of definitions) {
      const where = `resource "${definition.name}"`;
      if (typeof definition.name !== 'string' || !SEGMENT.test(definition.name)) {
        problems.push(`${where}: a name is letters, digits, _ and - (no '.'), starting with a letter or _`);
        continue;
      }
      versionsOf.claim(definition.name, definition.versions, where);
      if (tables.taken(definition.name)) problems.push(`${where}: a table resource has that name (names match case-insensitively)`);
      const resource = { name: definition.name, description: definition.description, definition } as CustomResource;
      const root = builder.level(definition, { name: definition.name, path: definition.name, subPath: '', kind: 'root', resource }, where);
      if (!root) continue;
      Object.assign(resource, {
        root,
        userFilters: builder.userFilters(definition, root, where),
        userOrders: builder.userOrders(definition, root, where),
      });
      resources.push(resource);
    }
    if (problems.length > 0) throw new CustomResourceError(problems);
    this.resources = resources;
    this.tableQueries =
      tableLevel === undefined
        ? []
        : this.buildTableQueries(tableQueries, tables, tableLevel, new LevelBuilder(tables, dialect, problems), problems);
    const index = (into: Map<string, ResourceLevel>, level: ResourceLevel): void => {
      into.set(level.path.toLowerCase(), level);
      level.subLevels.forEach((sub) => index(into, sub));
    };
    const shared = resources.filter((r) => r.definition.versions === undefined);
    shared.forEach((r) => index(this.shared, r.root));
    // Only when some resource is a version's own does a version get a map of its own; else every version reads `shared`.
    if (shared.length < resources.length) {
      for (const version of versions) {
        const own = resources.filter((r) => r.definition.versions === undefined || r.definition.versions.includes(version));
        const levels = new Map<string, ResourceLevel>();
        own.forEach((r) => index(levels, r.root));
        this.byVersion.set(version, levels);
        this.resourcesByVersion.set(version, own);
      }
    }
    this.sharedResources = shared;
  }

  /**
   * The custom resources API version `version` serves: those without `versions` and those naming it. A version the
   * environment serves that the project does not declare (API_VERSIONS) serves the shared ones only.
   */
  resourcesOf(version: string | undefined): readonly CustomResource[] {
    return (version === undefined ? undefined : this.resourcesByVersion.get(version)) ?? this.sharedResources;
  }

  /**
   * Checks each table's named filters and orders against its columns (every problem in one
   * error) and gives them to the table's level, where the table's GET finds them.
   */
  private buildTableQueries(
    definitions: Readonly<Record<string, TableQueriesDefinition>>,
    tables: ResourceRegistry,
    tableLevel: (table: Resource) => ResourceLevel,
    builder: LevelBuilder,
    problems: string[],
  ): CustomResource[] {
    const out: CustomResource[] = [];
    const seen = new Map<Resource, string>();
    for (const [name, definition] of Object.entries(definitions)) {
      const where = `table "${name}"`;
      const table = tables.find(name);
      if (!table) {
        problems.push(`${where}: no table resource has that name`);
        continue;
      }
      if (seen.has(table)) {
        problems.push(`${where} is the table "${seen.get(table)}" again (names match case-insensitively, with or without the prefix)`);
        continue;
      }
      seen.set(table, name);
      // Typed data, but a project written in JavaScript (or cast) may hold anything.
      if ((definition as unknown) === null || typeof definition !== 'object') {
        problems.push(`${where}: give { userFilters?, userOrders? }`);
        continue;
      }
      const unknown = Object.keys(definition).filter((key) => key !== 'userFilters' && key !== 'userOrders');
      if (unknown.length > 0) problems.push(`${where}: unknown field(s) ${unknown.join(', ')} (a table takes userFilters and userOrders)`);
      const root = tableLevel(table);
      const resource = root.resource;
      // The table level's resource is built with none; this is the one place that gives it its own.
      Object.assign(resource, {
        userFilters: builder.userFilters(definition, root, where),
        userOrders: builder.userOrders(definition, root, where),
      });
      if (resource.userFilters.size > 0 || resource.userOrders.size > 0) out.push(resource);
    }
    if (problems.length > 0) throw new TableQueriesError(problems);
    return out;
  }

  /** How many custom resources there are (0: every request names a table). */
  get size(): number {
    return this.resources.length;
  }

  /**
   * The level a URL name denotes ('Customers', 'customers.orders.lineitems') in API version `version` (the URL's
   * third segment), case-insensitively; undefined when none. Without a version: the levels every version shares.
   */
  find(path: string, version: string | undefined): ResourceLevel | undefined {
    const levels = (this.byVersion.size === 0 || version === undefined ? undefined : this.byVersion.get(version)) ?? this.shared;
    return levels.get(path.toLowerCase());
  }

  /** For RolesGuard: the table whose grants decide access to a level. */
  tableOf(path: string, version: string | undefined): Resource | undefined {
    return this.find(path, version)?.table;
  }
}

/**
 * The API versions custom resources name (`versions`): each must be one the project declares, and one name may be
 * defined more than once only for versions that do not overlap (`Customers` for v1, another `Customers` for v2).
 */
class VersionTags {
  /** Per lower-case name, the versions already taken (undefined: every version). */
  private readonly taken = new Map<string, Set<string> | 'all'>();

  constructor(
    private readonly declared: readonly string[],
    private readonly problems: string[],
  ) {}

  claim(name: string, versions: unknown, where: string): void {
    const lower = name.toLowerCase();
    const previous = this.taken.get(lower);
    if (versions === undefined) {
      if (previous !== undefined) this.problems.push(`${where} is defined twice (names match case-insensitively)`);
      this.taken.set(lower, 'all');
      return;
    }
    if (!Array.isArray(versions) || versions.length === 0 || versions.some((v) => typeof v !== 'string')) {
      this.problems.push(`${where}: versions is a non-empty list of the project's API versions (${this.declared.join(', ')})`);
      return;
    }
    const unknown = versions.filter((v: string) => !this.declared.includes(v));
    if (unknown.length > 0) {
      this.problems.push(
        `${where}: unknown API version(s) ${unknown.join(', ')} (the project declares ${this.declared.join(', ') || 'none'})`,
      );
    }
    const twice = previous === 'all' ? versions : versions.filter((v: string) => previous?.has(v));
    if (twice.length > 0) this.problems.push(`${where} is defined twice for ${twice.join(', ')} (names match case-insensitively)`);
    const set = previous instanceof Set ? previous : new Set<string>();
    versions.forEach((v: string) => set.add(v));
    if (previous !== 'all') this.taken.set(lower, set);
  }
}

type LevelHead = Pick<ResourceLevel, 'name' | 'path' | 'subPath' | 'kind' | 'resource'>;

class LevelBuilder {
  constructor(
    private readonly tables: ResourceRegistry,
    private readonly dialect: Dialect,
    private readonly problems: string[],
  ) {}

  level(
    definition: ResourceLevelDefinition & { entity: string; via?: string },
    head: LevelHead,
    where: string,
    owner?: ResourceLevel,
  ): ResourceLevel | undefined {
    const table = typeof definition.entity === 'string' ? this.tables.find(definition.entity) : undefined;
    if (!table) {
      this.problems.push(`${where}: no such table "${definition.entity}"`);
      return undefined;
    }
    if (table.view) {
      this.problems.push(`${where}: ${table.name} is a view, which custom resources do not read (it is served read-only as ${table.name})`);
      return undefined;
    }
    const level = { ...head, table } as ResourceLevel;
    if (owner) {
      const link = this.link(head.kind as 'child' | 'parent', owner, table, definition.via, where);
      if (!link) return undefined;
      level.link = link;
    }
    const attributes = this.attributes(definition, table, where);
    Object.assign(level, {
      attributes,
      attributeByName: new Map(attributes.map((a) => [a.name, a])),
      attributeByColumn: new Map(attributes.map((a) => [a.column.name, a])),
      key: this.key(definition.key, attributes, table, where),
      filter: this.fixedFilter(definition.filter, table, where),
      order: this.fixedOrder(definition.order, table, where),
    });
    const subNames = new Map<string, string>();
    const subLevels: ResourceLevel[] = [];
    const subs = [
      ...(definition.children ?? []).map((d) => ({ d, kind: 'child' as const })),
      ...(definition.parents ?? []).map((d) => ({ d, kind: 'parent' as const })),
    ];
    for (const { d, kind } of subs) {
      const subWhere = `${where}, ${kind} "${d.name}"`;
      if (typeof d.name !== 'string' || !SEGMENT.test(d.name)) {
        this.problems.push(`${subWhere}: a name is letters, digits, _ and - (no '.'), starting with a letter or _`);
        continue;
      }
      if (subNames.has(d.name.toLowerCase())) {
        this.problems.push(`${subWhere}: two sub-resources of ${head.path} have that name (names match case-insensitively)`);
        continue;
      }
      subNames.set(d.name.toLowerCase(), d.name);
      if (level.attributeByName.has(d.name)) this.problems.push(`${subWhere}: an attribute of ${head.path} has the same name`);
      const sub = this.level(
        d,
        {
          name: d.name,
          path: `${head.path}.${d.name}`,
          subPath: head.subPath ? `${head.subPath}.${d.name}` : d.name,
          kind,
          resource: head.resource,
        },
        subWhere,
        level,
      );
      if (sub) subLevels.push(sub);
    }
    level.subLevels = subLevels;
    level.functionLevels = this.functionLevels(definition.functions, level, subNames, where);
    return level;
  }

  private functionLevels(definitions: unknown, level: ResourceLevel, subNames: Map<string, string>, where: string): FunctionLevel[] {
    if (definitions === undefined) return [];
    if (!Array.isArray(definitions)) {
      this.problems.push(`${where}: functions is a list of { name, functionResource, parameters }`);
      return [];
    }
    const out: FunctionLevel[] = [];
    for (const d of definitions as Array<Partial<FunctionLevelDefinition> | null>) {
      const subWhere = `${where}, function sub-resource "${typeof d?.name === 'string' ? d.name : '?'}"`;
      if (typeof d?.name !== 'string' || !SEGMENT.test(d.name)) {
        this.problems.push(`${subWhere}: a name is letters, digits, _ and - (no '.'), starting with a letter or _`);
        continue;
      }
      if (subNames.has(d.name.toLowerCase())) {
        this.problems.push(`${subWhere}: two sub-resources of ${level.path} have that name (names match case-insensitively)`);
        continue;
      }
      subNames.set(d.name.toLowerCase(), d.name);
      if (level.attributeByName.has(d.name)) this.problems.push(`${subWhere}: an attribute of ${level.path} has the same name`);
      if (typeof d.functionResource !== 'string' || d.functionResource === '') {
        this.problems.push(`${subWhere}: functionResource names the function resource that answers it`);
        continue;
      }
      const parameters: Array<{ parameter: string; attribute: LevelAttribute }> = [];
      for (const [parameter, attributeName] of Object.entries(d.parameters ?? {})) {
        const attribute = typeof attributeName === 'string' ? level.attributeByName.get(attributeName) : undefined;
        if (attribute) parameters.push({ parameter, attribute });
        else
          this.problems.push(
            `${subWhere}: parameter ${parameter} is taken from "${attributeName}", which is no attribute of ${level.path}`,
          );
      }
      out.push({ name: d.name, functionResource: d.functionResource, parameters });
    }
    return out;
  }

  userFilters(definition: Pick<CustomResourceDefinition, 'userFilters'>, root: ResourceLevel, where: string): Map<string, UserFilter> {
    const out = new Map<string, UserFilter>();
    for (const [name, text] of Object.entries(definition.userFilters ?? {})) {
      try {
        const filter = parseUserFilter(name, text);
        compileFilter(filter.tree, this.checkContext(this.attributeResolver(root)));
        out.set(name, filter);
      } catch (error) {
        this.problems.push(`${where}, userFilter "${name}": ${(error as Error).message}`);
      }
    }
    return out;
  }

  userOrders(
    definition: Pick<CustomResourceDefinition, 'userOrders'>,
    root: ResourceLevel,
    where: string,
  ): Map<string, readonly OrderTerm[]> {
    const out = new Map<string, readonly OrderTerm[]>();
    for (const [name, text] of Object.entries(definition.userOrders ?? {})) {
      try {
        if (!ATTRIBUTE.test(name)) throw new Error('a name is letters, digits and _');
        const terms = parseOrder(text);
        compileOrder(terms, this.checkContext(this.attributeResolver(root)));
        out.set(name, terms);
      } catch (error) {
        this.problems.push(`${where}, userOrder "${name}": ${(error as Error).message}`);
      }
    }
    return out;
  }

  /** What a definition's filter or order is compiled against to check it (the SQL is thrown away). */
  private checkContext(columns: ColumnResolver): CompileContext {
    return { columns, params: positionalParams(), dialect: this.dialect };
  }

  private attributeResolver(level: ResourceLevel): AttributeColumnResolver {
    return new AttributeColumnResolver(level.attributeByName, new RegistryColumnResolver(level.table, this.tables, this.dialect));
  }

  private link(
    kind: 'child' | 'parent',
    owner: ResourceLevel,
    table: Resource,
    via: string | undefined,
    where: string,
  ): LevelLink | undefined {
    // A child level follows its own relation to the owner; a parent level, the owner's relation to it.
    const [from, to] = kind === 'child' ? [table, owner.table] : [owner.table, table];
    const candidates = from.parents.filter((p) => p.parent === to.name && (via === undefined || p.name === via));
    if (candidates.length !== 1) {
      const known = from.parents.filter((p) => p.parent === to.name).map((p) => p.name);
      this.problems.push(
        `${where}: ${
          candidates.length === 0
            ? via === undefined
              ? `no relation links ${from.name} to its parent ${to.name}`
              : `${from.name} has no relation "${via}" to ${to.name}${known.length > 0 ? ` (it has: ${known.join(', ')})` : ''}`
            : `several relations link ${from.name} to ${to.name} (${known.join(', ')}): name one with via`
        }`,
      );
      return undefined;
    }
    const relation = candidates[0]!;
    const columns = relation.columns.map((pair) =>
      kind === 'child' ? { owner: pair.parent, level: pair.child } : { owner: pair.child, level: pair.parent },
    );
    return { owner, relation, columns };
  }

  private attributes(definition: ResourceLevelDefinition, table: Resource, where: string): LevelAttribute[] {
    if (definition.attributes === undefined) return table.columns.map((column) => ({ name: column.name, column }));
    const out: LevelAttribute[] = [];
    for (const entry of definition.attributes) {
      const [name, columnName] = typeof entry === 'string' ? [entry, entry] : [entry.name, entry.column];
      const column = typeof columnName === 'string' ? table.columnsByName.get(columnName) : undefined;
      if (!column) {
        this.problems.push(`${where}: attribute "${name}": ${table.name} has no column "${columnName}"`);
        continue;
      }
      if (typeof name !== 'string' || !ATTRIBUTE.test(name)) {
        this.problems.push(`${where}: attribute "${name}": a name is letters, digits and _, starting with a letter or _`);
        continue;
      }
      if (out.some((a) => a.name === name)) this.problems.push(`${where}: attribute "${name}" is named twice`);
      else if (out.some((a) => a.column === column)) this.problems.push(`${where}: column "${column.name}" is shown twice`);
      else out.push({ name, column });
    }
    return out;
  }

  /** A declared key: attribute names of the level that are the table's primary key or a unique key. */
  private key(key: unknown, attributes: readonly LevelAttribute[], table: Resource, where: string): string[] | undefined {
    if (key === undefined) return undefined;
    const names = Array.isArray(key) ? (key as unknown[]) : [key];
    if (names.length === 0 || names.some((n) => typeof n !== 'string') || new Set(names).size !== names.length) {
      this.problems.push(`${where}: key: an attribute name or a list of different attribute names`);
      return undefined;
    }
    const columns: string[] = [];
    for (const name of names as string[]) {
      const attribute = attributes.find((a) => a.name === name);
      if (attribute) columns.push(attribute.column.name);
      else this.problems.push(`${where}: key: "${name}" is not an attribute of this level`);
    }
    if (columns.length < names.length) return undefined;
    if (!isRowKey(table, columns)) {
      this.problems.push(`${where}: key (${names.join(', ')}) is neither the primary key nor a unique key of ${table.name}`);
      return undefined;
    }
    return columns;
  }

  private fixedFilter(text: string | undefined, table: Resource, where: string): FilterNode | undefined {
    if (text === undefined) return undefined;
    try {
      if (tokenize(text, 'filter').some((t) => t.type === 'global'))
        throw new Error('a fixed filter may not use @{globals}; use a role row filter');
      const tree = parseFilter(text);
      compileFilter(tree, this.checkContext(new RegistryColumnResolver(table, this.tables, this.dialect)));
      return tree;
    } catch (error) {
      this.problems.push(`${where}: filter: ${(error as Error).message}`);
      return undefined;
    }
  }

  private fixedOrder(text: string | undefined, table: Resource, where: string): OrderTerm[] {
    if (text === undefined) return [];
    try {
      const terms = parseOrder(text);
      compileOrder(terms, this.checkContext(new RegistryColumnResolver(table, this.tables, this.dialect)));
      return terms;
    } catch (error) {
      this.problems.push(`${where}: order: ${(error as Error).message}`);
      return [];
    }
  }
}
