import type { FilterNode, OrderTerm } from '../../data/query/ast.js';
import { parseFilter } from '../../data/query/filter-parser.js';
import { combineSortTerms, parseOrder, parseSysOrder } from '../../data/query/order-parser.js';
import { compileFilter, compileOrder } from '../../data/query/sql-compiler.js';
import { parseSysFilter } from '../../data/query/sysfilter-parser.js';
import { isKeyless, type ResourceRegistry } from '../../data/resource-registry.js';
import type { KeyValues } from '../../data/primary-key.js';
import type { ColumnResolver } from '../../data/query/compile-context.js';
import { keylessOrder } from '../../security/keyless-order.js';
import { limitLiteral, paramsFor, RowStore, type Params } from '../../data/row-store.js';
import { quoteIdentifier } from '../../data/sql-dialect.js';
import type { CanonicalRow, CanonicalValue } from '../../data/value-codec.js';
import type { DatabaseSession } from '../../database/database.js';
import type { Dialect } from '../../database/dialect.js';
import { CallerColumnResolver } from '../../security/caller-column-resolver.js';
import { readVisibility } from '../../security/read-visibility.js';
import { roleFilterSql, type ResourceAccess } from '../../security/resource-access.js';
import type { ReadQuery } from './read-query.js';
import { AttributeColumnResolver } from '../levels/attribute-column-resolver.js';
import type { ResourceLevel } from '../levels/custom-resource-registry.js';

const FILTER_LIMITS = { maxLength: 4096, maxNodes: 200 };
/** Owner keys bound in one statement: far below every database's parameter limit (SQLite's is 32766). */
export const OWNER_KEYS_PER_STATEMENT = 500;

/** A row of a level as its reader may see it: `readable` undefined means every column. */
export interface LevelRow {
  row: CanonicalRow;
  readable?: ReadonlySet<string>;
}

/** Where a reader's statements run: the database (each read on its own), or one open write transaction (see `DocumentTransaction`). */
export interface ReadScope {
  readonly dialect: Dialect;
  read<T>(work: (session: Pick<DatabaseSession, 'query'>) => Promise<T>): Promise<T>;
}

/** What the request asks of one level: its texts (per-level or root parameters) and, at the root, named filters and orders. */
export interface LevelQuery {
  request?: Omit<ReadQuery, 'pageSize' | 'offset'>;
  extraFilters?: readonly FilterNode[];
  extraOrder?: readonly OrderTerm[];
  /** Conditions of the caller's own (`parent=`), compiled into the statement's parameters. */
  conditions?: ReadonlyArray<(params: Params, store: RowStore) => string>;
  /** The one row with this key (a GET of `<level>/<key>`): read without an order. */
  key?: KeyValues;
}

/**
 * The one reader of every resource: a table resource is one level (`tableLevel`), a custom
 * resource nests levels. The SQL of a read: one statement per level (per chunk of `OWNER_KEYS_PER_STATEMENT`
 * owner rows). Each level reads its table under the caller's grants on that table: the READ row
 * filters, per-row readable columns (`readVisibility`), request filters and orders on the level's
 * attribute names through the caller's column resolver, the level's fixed filter and order, and
 * the primary key last so pages are stable. Children of many owners come in one statement, each
 * owner's first `pageSize + 1` by `ROW_NUMBER() OVER (PARTITION BY <link columns> ORDER BY ...)`.
 */
export class LevelReader {
  private readonly dialect: Dialect;

  constructor(
    private readonly database: ReadScope,
    private readonly registry: ResourceRegistry,
  ) {
    this.dialect = database.dialect;
  }

  /** A page of the level's rows (the root of a request): `limit` rows from `offset`. */
  async page(level: ResourceLevel, access: ResourceAccess, query: LevelQuery, limit: number, offset: number): Promise<LevelRow[]> {
    return this.database.read(async (session) => {
      const store = new RowStore(session, this.dialect);
      const params = paramsFor(this.dialect);
      const visibility = readVisibility(level.table, access, this.registry, this.dialect, params);
      const where = this.where(level, access, query, params, store);
      const orderBy = query.key ? [] : this.orderBy(level, access, query, params);
      const rows = await store.page(level.table, { where, orderBy, extra: visibility.select }, params, limit, offset);
      return rows.map((r) => ({ row: r.row, readable: visibility.readable(r.extra) }));
    });
  }

  /**
   * How many of the level's rows a page of this query would go through, up to `bound` (see
   * `RowStore.count`): the same conditions, so it counts only rows the caller could read.
   */
  async count(level: ResourceLevel, access: ResourceAccess, query: LevelQuery, bound: number): Promise<number> {
    return this.database.read((session) => {
      const store = new RowStore(session, this.dialect);
      const params = paramsFor(this.dialect);
      return store.count(level.table, this.where(level, access, query, params, store), params, bound);
    });
  }

  /**
   * The level's rows that belong to the given owner rows, grouped by owner (`ownerKey` of the
   * owner row): for a child level, each owner's first `perOwner` rows in the level's order; for a
   * parent level, the one row each owner names. `maxRows` bounds what a child level reads: once
   * more than that many rows (besides one extra per owner, which tells there are more) have
   * come, no more are read, and the caller, counting, finds its budget exceeded.
   */
  async ofOwners(
    level: ResourceLevel,
    access: ResourceAccess,
    query: LevelQuery,
    owners: readonly CanonicalRow[],
    perOwner: number,
    maxRows = Number.MAX_SAFE_INTEGER - OWNER_KEYS_PER_STATEMENT - 1,
  ): Promise<Map<string, LevelRow[]>> {
    const link = level.link!;
    const keys = new Map<string, CanonicalValue[]>();
    for (const owner of owners) {
      const values = link.columns.map((pair) => owner[pair.owner] ?? null);
      if (values.some((v) => v === null)) continue;
      keys.set(this.tupleKey(values), values);
    }
    const grouped = new Map<string, LevelRow[]>();
    const tuples = [...keys.values()];
    let budget = maxRows;
    for (let i = 0; i < tuples.length && budget >= 0; i += OWNER_KEYS_PER_STATEMENT) {
      const chunk = tuples.slice(i, i + OWNER_KEYS_PER_STATEMENT);
      const limit = budget + chunk.length + 1;
      const rows = await this.database.read((session) => this.chunk(session, level, access, query, chunk, perOwner, limit));
      // At least this many of the rows are shown (all but one per owner at most).
      budget -= Math.max(0, rows.length - chunk.length);
      if (rows.length >= limit) budget = -1;
      for (const row of rows) {
        const key = this.tupleKey(link.columns.map((pair) => row.row[pair.level] ?? null));
        const list = grouped.get(key) ?? [];
        grouped.set(key, list);
        list.push(row);
      }
    }
    return grouped;
  }

  /**
   * What keeps the link between owner rows and a level's rows to what the caller may read:
   * placing a row under its owner shows the link's columns (an order under a customer tells its
   * `customer_name`, a rep under an order its `salesrep_id`). Undefined when the caller may read
   * none of `columns` of `table` (the level is then left out); else the conditions (on `alias`)
   * that keep to the rows showing them, where only row-filtered grants show one (none otherwise).
   */
  linkGuard(
    table: ResourceLevel['table'],
    access: ResourceAccess,
    columns: readonly string[],
    alias = 't',
  ): Array<(params: Params) => string> | undefined {
    const readable = access.readable();
    if (!access.can('READ') || (readable && !columns.every((c) => readable.has(c)))) return undefined;
    return columns
      .map((column) => access.columnGrants(column, false))
      .filter((grants): grants is NonNullable<typeof grants> => grants !== undefined)
      .map((grants) => (params) => access.grantsPredicate(grants, roleFilterSql(table, this.registry, this.dialect, params, alias)));
  }

  /** The key `ofOwners` groups an owner row's rows under. */
  ownerKey(level: ResourceLevel, owner: CanonicalRow): string {
    return this.tupleKey(level.link!.columns.map((pair) => owner[pair.owner] ?? null));
  }

  private async chunk(
    session: Pick<DatabaseSession, 'query'>,
    level: ResourceLevel,
    access: ResourceAccess,
    query: LevelQuery,
    tuples: CanonicalValue[][],
    perOwner: number,
    limit: number,
  ): Promise<LevelRow[]> {
    const q = (name: string): string => quoteIdentifier(this.dialect, name);
    const store = new RowStore(session, this.dialect);
    const link = level.link!;
    const params = paramsFor(this.dialect);
    const visibility = readVisibility(level.table, access, this.registry, this.dialect, params);
    const select = [store.selectList(level.table), ...visibility.select.map((e) => `${e.sql} AS ${q(e.alias)}`)];
    const paged = level.kind === 'child';
    // Parameters are bound in the order their placeholders appear: the select list, the window's order, then WHERE.
    if (paged) {
      const partition = link.columns.map((pair) => `${q('t')}.${q(pair.level)}`).join(', ');
      const order = this.orderBy(level, access, query, params);
      select.push(`ROW_NUMBER() OVER (PARTITION BY ${partition} ORDER BY ${order.join(', ')}) AS ${q('__rn')}`);
    }
    const columns = link.columns.map((pair) => level.table.columnsByName.get(pair.level)!);
    const member =
      columns.length === 1
        ? `${q('t')}.${q(columns[0]!.name)} IN (${tuples.map((t) => store.compared(columns[0]!, t[0]!, params)).join(', ')})`
        : `(${columns.map((c) => `${q('t')}.${q(c.name)}`).join(', ')}) IN (${tuples
            .map((t) => `(${columns.map((c, i) => store.compared(c, t[i]!, params)).join(', ')})`)
            .join(', ')})`;
    const where = [member, ...this.where(level, access, query, params, store)];
    const inner = `SELECT ${select.join(', ')} FROM ${q(level.table.tableName)} ${q('t')} WHERE ${where.join(' AND ')}`;
    const sql = paged
      ? `SELECT * FROM (${inner}) ${q('w')} WHERE ${q('w')}.${q('__rn')} <= ${limitLiteral(perOwner)} ORDER BY ${q('w')}.${q('__rn')} LIMIT ${limitLiteral(limit)}`
      : inner;
    const rows = await session.query(sql, params.values);
    return rows.map((raw) => ({
      row: store.toRow(level.table, raw),
      readable: visibility.readable(Object.fromEntries(visibility.select.map((e) => [e.alias, raw[e.alias]]))),
    }));
  }

  /** The level's conditions: the request's (on attribute names, as the caller may name them), the fixed filter, the role filters. */
  private where(level: ResourceLevel, access: ResourceAccess, query: LevelQuery, params: Params, store: RowStore): string[] {
    const mine = { columns: this.callerColumns(level, access), params, dialect: this.dialect };
    const where = [
      ...(query.request?.filters ?? []).map((text) => compileFilter(parseFilter(text, FILTER_LIMITS), mine)),
      ...(query.request?.sysfilters ?? []).map((text) => compileFilter(parseSysFilter(text, FILTER_LIMITS), mine)),
      ...(query.extraFilters ?? []).map((tree) => compileFilter(tree, mine)),
      ...(query.conditions ?? []).map((condition) => condition(params, store)),
    ];
    if (query.key) where.push(store.keyPredicate(level.table, query.key, params, 't'));
    const system = roleFilterSql(level.table, this.registry, this.dialect, params);
    if (level.filter) where.push(compileFilter(level.filter, system));
    const rowFilter = access.rowPredicate('READ', system);
    if (rowFilter) where.push(rowFilter);
    return where;
  }

  /** The request's terms (attribute names), then the level's fixed order, then the primary key's columns not named yet, in the last term's direction. */
  private orderBy(level: ResourceLevel, access: ResourceAccess, query: LevelQuery, params: Params): string[] {
    const request = query.request;
    const terms = combineSortTerms([
      request?.order !== undefined ? parseOrder(request.order) : [],
      request?.sysorder !== undefined ? parseSysOrder(request.sysorder) : [],
      [...(query.extraOrder ?? [])],
    ]);
    const named = new Set(terms.map((t) => level.attributeByName.get(t.column[0]!)?.column.name));
    // The fixed order sorts only by what the caller may read (as the caller may name it): a term on a hidden column would rank its values.
    const callerTable = new CallerColumnResolver(access, this.registry, this.dialect);
    const fixed = level.order.filter((t) => !named.has(t.column[0]) && callerTable.resolve(t.column) !== undefined);
    for (const t of fixed) if (t.column.length === 1) named.add(t.column[0]);
    // The key runs the way the last term does: an index on that term's column (which holds the key too,
    // on InnoDB) then gives the whole order, and a page is read without sorting every row that matches.
    const keyDirection = [...terms, ...fixed].at(-1)?.direction ?? 'asc';
    const keyTerms: OrderTerm[] = level.table.primaryKey
      .filter((column) => !named.has(column.name))
      .map((column) => ({ column: [column.name], direction: keyDirection, caseInsensitive: false }));
    const mine = { columns: this.callerColumns(level, access), params, dialect: this.dialect };
    const system = roleFilterSql(level.table, this.registry, this.dialect, params);
    return [
      ...compileOrder(terms, mine),
      ...compileOrder(fixed, { columns: callerTable, params, dialect: this.dialect }),
      // A view without a key is ordered by every column instead (see `keylessOrder`).
      ...(isKeyless(level.table) ? keylessOrder(level.table, access, this.registry, this.dialect, params) : compileOrder(keyTerms, system)),
    ];
  }

  private callerColumns(level: ResourceLevel, access: ResourceAccess): ColumnResolver {
    const table = new CallerColumnResolver(access, this.registry, this.dialect);
    return level.tableResource ? table : new AttributeColumnResolver(level.attributeByName, table);
  }

  /** A tuple of key values as a map key; MySQL compares text case-insensitively (its default collations), so its keys fold case. */
  private tupleKey(values: readonly CanonicalValue[]): string {
    return JSON.stringify(this.dialect === 'mysql' ? values.map((v) => (typeof v === 'string' ? v.toLowerCase() : v)) : values);
  }
}
