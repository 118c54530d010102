import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { parseKeySegment } from '../data/primary-key.js';
import type { OrderTerm } from '../data/query/ast.js';
import { parseFilter } from '../data/query/filter-parser.js';
import { combineSortTerms, parseOrder, parseSysOrder } from '../data/query/order-parser.js';
import { compileFilter, compileOrder } from '../data/query/sql-compiler.js';
import { parseSysFilter } from '../data/query/sysfilter-parser.js';
import { isKeyless, ResourceRegistry, type Resource } from '../data/resource-registry.js';
import { paramsFor, RowStore, type Params } from '../data/row-store.js';
import type { CanonicalRow, CanonicalValue } from '../data/value-codec.js';
import { excerpt } from '../data/query/limits.js';
import { ApiSettings } from '../config/api-settings.js';
import { Database, type DatabaseSession } from '../database/database.js';
import type { Dialect } from '../database/dialect.js';
import { LogicEngine } from '../logic/logic-engine.js';
import type { RuleLog } from '../logic/rule-log.js';
import { CHECKSUM_OVERRIDE } from '../logic/write-transaction.js';
import { CallerColumnResolver } from '../security/caller-column-resolver.js';
import { keylessOrder } from '../security/keyless-order.js';
import { readOnlyViewError } from '../security/read-only-view.js';
import { roleFilterSql, type ResourceAccess } from '../security/resource-access.js';
import { readVisibility, type ReadVisibility } from '../security/read-visibility.js';
import { SecurityService } from '../security/security.service.js';
import type { VisibleEntry } from '../security/summary-visibility.js';
import type { ReadQuery } from './read/read-query.js';
import { bodyItems } from './write/document-body.js';
import { DocumentPlanner } from './write/document-plan.js';
import { DocumentWriter, type WriteOptions } from './write/document-writer.js';
import { isDuplicateKey } from './write/duplicate-key.js';
import type { DerivedSent } from './write/object-checks.js';
import type { WriteAction } from './write/write-action.js';
import { tableLevel, type WriteLevel } from './write/write-level.js';
import { documentLevel } from './write/document-level.js';
import type { ResourceLevel } from './levels/custom-resource-registry.js';

/** The level a write walks: a custom resource's (and those below it), or the table's own. */
function writeLevelOf(access: ResourceAccess, level: ResourceLevel | undefined): WriteLevel {
  return level ? documentLevel(level) : tableLevel(access.resource);
}

const FILTER_LIMITS = { maxLength: 4096, maxNodes: 200 };

/** Writes never reach a view (RolesGuard answers them first, see there): should one get here, it is refused all the same. */
function refuseOnView(resource: Resource): void {
  if (resource.view) throw readOnlyViewError(resource);
}

/** A view without a key has no `<view>/<key>` URLs: its rows are read as a collection (404 / 4040 otherwise). */
export function refuseKeyless(resource: Resource): void {
  if (isKeyless(resource)) {
    throw new ApiError(
      ErrorCode.NOT_FOUND,
      `${resource.name} is a view without a key: its rows have no URL of their own. Read ${resource.name} with a filter.`,
    );
  }
}

/** A row as its reader may see it: `readable` undefined means every column. */
export interface VisibleRow {
  row: CanonicalRow;
  readable?: ReadonlySet<string>;
}

export interface ReadResult {
  rows: VisibleRow[];
  hasMore: boolean;
}

/**
 * Reads and writes of project resources for one caller's access. Reads compile to one
 * parameterized SELECT with the roles' row filters; writes go through the logic engine, under
 * the caller's row policy (security), which it asks inside the transaction.
 */
@Injectable()
export class DocumentsService {
  private readonly dialect: Dialect;
  /** Values sent for derived attributes: ignored unless the API's Aggregate Default Override is on (see `DerivedSent`). */
  private readonly derivedSent: DerivedSent;

  constructor(
    private readonly database: Database,
    private readonly registry: ResourceRegistry,
    private readonly engine: LogicEngine,
    private readonly security: SecurityService,
    settings: ApiSettings,
  ) {
    this.dialect = database.dialect;
    this.derivedSent = settings.aggregateDefaultOverride ? 'compare' : 'ignore';
  }

  async list(access: ResourceAccess, query: ReadQuery): Promise<ReadResult> {
    const resource = access.resource;
    const params = paramsFor(this.dialect);
    const extra = this.visibilityFlags(resource, access, params);
    const { where, mine } = this.readConditions(access, query, params);
    const terms: OrderTerm[] = combineSortTerms([
      query.order !== undefined ? parseOrder(query.order) : [],
      query.sysorder !== undefined ? parseSysOrder(query.sysorder) : [],
    ]);
    // Pages are stable: every order ends with the primary key (whether or not the caller may read it),
    // a view's without one with every column (see `keylessOrder`).
    const keyTerms: OrderTerm[] = resource.primaryKey
      .filter((column) => !terms.some((t) => t.column.length === 1 && t.column[0] === column.name))
      .map((column) => ({ column: [column.name], direction: 'asc', caseInsensitive: false }));
    const orderBy = compileOrder(terms, mine);
    orderBy.push(
      ...(isKeyless(resource)
        ? keylessOrder(resource, access, this.registry, this.dialect, params)
        : compileOrder(keyTerms, roleFilterSql(resource, this.registry, this.dialect, params))),
    );
    const page = await this.database.read((session) =>
      this.reader(session).page(resource, { where, orderBy, extra: extra.select }, params, query.pageSize + 1, query.offset),
    );
    return {
      rows: page.slice(0, query.pageSize).map((p) => ({ row: p.row, readable: extra.readable(p.extra) })),
      hasMore: page.length > query.pageSize,
    };
  }

  /**
   * How many rows a list with these filters would page through for this caller, up to `bound` (see
   * `RowStore.count`): the same conditions as `list`, the roles' READ row filters included, so it counts only
   * rows the caller could read.
   */
  async count(access: ResourceAccess, query: Pick<ReadQuery, 'filters' | 'sysfilters'>, bound: number): Promise<number> {
    const params = paramsFor(this.dialect);
    const { where } = this.readConditions(access, query, params);
    return this.database.read((session) => this.reader(session).count(access.resource, where, params, bound));
  }

  /** A read's WHERE: the caller's filters (on columns it may read only) and its roles' READ row filters. */
  private readConditions(access: ResourceAccess, query: Pick<ReadQuery, 'filters' | 'sysfilters'>, params: Params) {
    const mine = { columns: new CallerColumnResolver(access, this.registry, this.dialect), params, dialect: this.dialect };
    const where: string[] = [
      ...query.filters.map((text) => compileFilter(parseFilter(text, FILTER_LIMITS), mine)),
      ...query.sysfilters.map((text) => compileFilter(parseSysFilter(text, FILTER_LIMITS), mine)),
    ];
    const rowFilter = access.rowPredicate('READ', roleFilterSql(access.resource, this.registry, this.dialect, params));
    if (rowFilter) where.push(rowFilter);
    return { where, mine };
  }

  async get(access: ResourceAccess, keySegment: string): Promise<VisibleRow | undefined> {
    const resource = access.resource;
    refuseKeyless(resource);
    const key = parseKeySegment(resource, keySegment);
    const params = paramsFor(this.dialect);
    const extra = this.visibilityFlags(resource, access, params);
    const [found] = await this.database.read((session) => {
      const store = this.reader(session);
      const where = [store.keyPredicate(resource, key, params, 't')];
      const rowFilter = access.rowPredicate('READ', roleFilterSql(resource, this.registry, this.dialect, params));
      if (rowFilter) where.push(rowFilter);
      return store.page(resource, { where, orderBy: [], extra: extra.select }, params, 1, 0);
    });
    return found ? { row: found.row, readable: extra.readable(found.extra) } : undefined;
  }

  /** A rule log when the request asks for a rule summary (`rulesummary=true`), else undefined: nothing is recorded. */
  ruleLogFor(rulesummary: boolean): RuleLog | undefined {
    return rulesummary ? this.engine.ruleLog() : undefined;
  }

  /**
   * One column's value in one row, as the caller's GET would show it: undefined when the row is
   * not there for the caller, 400 / 4003 for a column it may not read in that row.
   */
  async value(access: ResourceAccess, keySegment: string, columnName: string): Promise<CanonicalValue | undefined> {
    refuseKeyless(access.resource);
    const column = access.resource.columnsByName.get(columnName);
    const unknown = (): ApiError => new ApiError(ErrorCode.UNKNOWN_COLUMN, `unknown column "${excerpt(columnName, 64)}"`);
    if (!column) throw unknown();
    const found = await this.get(access, keySegment);
    if (found?.readable && !found.readable.has(column.name)) throw unknown();
    return found ? (found.row[column.name] ?? null) : undefined;
  }

  /** POST: a table resource's objects, or (`level` given) a custom resource's documents. */
  async insert(access: ResourceAccess, body: unknown, ruleLog?: RuleLog, level?: ResourceLevel): Promise<VisibleEntry[]> {
    return this.write(access, writeLevelOf(access, level), bodyItems(body), 'INSERT', { recordUnchanged: level === undefined, ruleLog });
  }

  /**
   * PUT on an object's URL (`keySegment` given) or on the collection (objects identified by href or key columns);
   * a custom resource's documents when `level` is given (objects whose values are unchanged are not listed).
   */
  async update(
    access: ResourceAccess,
    body: unknown,
    keySegment?: string,
    ifMatch?: string,
    ruleLog?: RuleLog,
    level?: ResourceLevel,
  ): Promise<VisibleEntry[]> {
    const items = bodyItems(body);
    if (keySegment !== undefined && items.length !== 1) {
      throw new ApiError(ErrorCode.BAD_REQUEST, 'A PUT on one object takes one JSON object.');
    }
    return this.write(access, writeLevelOf(access, level), items, 'UPDATE', {
      keySegment,
      ifMatch,
      recordUnchanged: level === undefined,
      ruleLog,
    });
  }

  /**
   * Writes a body (a table resource's objects, or a custom resource's documents) in one
   * transaction, each object by its `@metadata.action` (`byDefault` when it names none). Two
   * MERGE_INSERTs of the same new key at once: the one that loses the race for the insert meets
   * the other's row as a duplicate key, and runs once more, as an update of that row.
   */
  async write(
    access: ResourceAccess,
    level: WriteLevel,
    items: ReadonlyArray<Record<string, unknown>>,
    byDefault: WriteAction,
    options: WriteOptions,
  ): Promise<VisibleEntry[]> {
    refuseOnView(access.resource);
    const objects = new DocumentPlanner(byDefault).plan(level, items);
    const policy = this.security.rowPolicy(access);
    for (let attempt = 1; ; attempt++) {
      let writer: DocumentWriter | undefined;
      try {
        return await this.engine.run(
          policy,
          async (tx) => {
            writer = new DocumentWriter(tx, access, this.registry, (r) => this.engine.derivedAttributes(r), options, this.derivedSent);
            await writer.writeAll(objects);
          },
          options.ruleLog,
        );
      } catch (error) {
        if (attempt > 1 || !writer?.mergeInserted || !isDuplicateKey(error)) throw error;
      }
    }
  }

  async delete(access: ResourceAccess, keySegment: string, checksum: string | undefined, ruleLog?: RuleLog): Promise<VisibleEntry[]> {
    const resource = access.resource;
    refuseOnView(resource);
    const key = parseKeySegment(resource, keySegment);
    if (!checksum) {
      throw new ApiError(
        ErrorCode.CHECKSUM_REQUIRED,
        `A delete needs the object's current checksum (?checksum=…, or "${CHECKSUM_OVERRIDE}").`,
      );
    }
    return this.engine.run(this.security.rowPolicy(access), (tx) => tx.delete(resource, key, checksum).then(() => undefined), ruleLog);
  }

  /** Which columns each row shows the caller (see `readVisibility`). */
  private visibilityFlags(resource: Resource, access: ResourceAccess, params: Params): ReadVisibility {
    return readVisibility(resource, access, this.registry, this.dialect, params);
  }

  /** Reads outside a transaction: the pool, or SQLite's prepared statements (see `loneReads`). */
  private reader(session: DatabaseSession): RowStore {
    return new RowStore(session, this.dialect);
  }
}
