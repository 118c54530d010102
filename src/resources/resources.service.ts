import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { Database, type DatabaseSession } from '../database/database.js';
import { LogicEngine } from '../logic/logic-engine.js';
import { ConstraintFailure } from '../logic/constraint-failure.js';
import { CHECKSUM_OVERRIDE, type WriteTransaction } from '../logic/write-transaction.js';
import { CallerColumnResolver } from '../security/caller-column-resolver.js';
import type { Grant } from '../security/role-bank.js';
import type { ResourceAccess } from '../security/resource-access.js';
import type { Operation } from '../security/role-definition.js';
import { RegistryColumnResolver } from '../data/column-resolver.js';
import { keyOf, parseKeySegment, type KeyValues } from '../data/primary-key.js';
import type { OrderTerm } from '../data/query/ast.js';
import { parseFilter } from '../data/query/filter-parser.js';
import { combineSortTerms, parseOrder, parseSysOrder } from '../data/query/order-parser.js';
import { compileFilter, compileOrder } from '../data/query/sql-compiler.js';
import { parseSysFilter } from '../data/query/sysfilter-parser.js';
import type { ReadQuery } from './read-query.js';
import { bodyItems, columnValues, metadataOf, missingRequired } from './request-body.js';
import { ResourceRegistry, type Resource } from '../data/resource-registry.js';
import type { Dialect } from '../database/dialect.js';
import { paramsFor, RowStore, type Params } from '../data/row-store.js';
import type { CanonicalRow } from '../data/value-codec.js';
import { SummaryVisibility, type VisibleEntry } from '../security/summary-visibility.js';
import { ValuesColumnResolver } from '../data/values-column-resolver.js';

const FILTER_LIMITS = { maxLength: 4096, maxNodes: 200 };

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
 * parameterized SELECT with the roles' row filters; writes go through the logic engine,
 * with the row checks of the caller's roles inside the transaction.
 */
@Injectable()
export class ResourcesService {
  private readonly dialect: Dialect;
  private readonly summaryVisibility: SummaryVisibility;

  constructor(
    private readonly database: Database,
    readonly registry: ResourceRegistry,
    private readonly engine: LogicEngine,
  ) {
    this.dialect = database.dialect;
    this.summaryVisibility = new SummaryVisibility(registry, this.dialect);
  }

  async list(resource: Resource, query: ReadQuery, access: ResourceAccess): Promise<ReadResult> {
    const params = paramsFor(this.dialect);
    const extra = this.visibilityFlags(resource, access, params);
    const mine = { columns: new CallerColumnResolver(access, this.registry, this.dialect), params, dialect: this.dialect };
    const where: string[] = [
      ...query.filters.map((text) => compileFilter(parseFilter(text, FILTER_LIMITS), mine)),
      ...query.sysfilters.map((text) => compileFilter(parseSysFilter(text, FILTER_LIMITS), mine)),
    ];
    const rowFilter = access.rowPredicate('READ', this.roleSql(resource, params));
    if (rowFilter) where.push(rowFilter);
    const terms: OrderTerm[] = combineSortTerms([
      query.order !== undefined ? parseOrder(query.order) : [],
      query.sysorder !== undefined ? parseSysOrder(query.sysorder) : [],
    ]);
    // Pages are stable: every order ends with the primary key (whether or not the caller may read it).
    const keyTerms: OrderTerm[] = resource.primaryKey
      .filter((column) => !terms.some((t) => t.column.length === 1 && t.column[0] === column.name))
      .map((column) => ({ column: [column.name], direction: 'asc', caseInsensitive: false }));
    const orderBy = [...compileOrder(terms, mine), ...compileOrder(keyTerms, this.roleSql(resource, params))];
    const page = await this.database.read((session) => this.reader(session).page(resource, { where, orderBy, extra: extra.select }, params, query.pageSize + 1, query.offset));
    return { rows: page.slice(0, query.pageSize).map((p) => ({ row: p.row, readable: extra.readable(p.extra) })), hasMore: page.length > query.pageSize };
  }

  async get(resource: Resource, keySegment: string, access: ResourceAccess): Promise<VisibleRow | undefined> {
    const key = parseKeySegment(resource, keySegment);
    const params = paramsFor(this.dialect);
    const extra = this.visibilityFlags(resource, access, params);
    const [found] = await this.database.read((session) => {
      const store = this.reader(session);
      const where = [store.keyPredicate(resource, key, params, 't')];
      const rowFilter = access.rowPredicate('READ', this.roleSql(resource, params));
      if (rowFilter) where.push(rowFilter);
      return store.page(resource, { where, orderBy: [], extra: extra.select }, params, 1, 0);
    });
    return found ? { row: found.row, readable: extra.readable(found.extra) } : undefined;
  }

  async insert(resource: Resource, body: unknown, access: ResourceAccess): Promise<VisibleEntry[]> {
    const writable = this.writablePredicate(resource, access, 'INSERT');
    const items = bodyItems(body).map((item) => {
      const values = columnValues(resource, item, (name) => writable(name) && !resource.columnsByName.get(name)!.generated);
      const missing = missingRequired(resource, values);
      if (missing.length > 0) {
        throw new ApiError(ErrorCode.BAD_REQUEST, `Missing required column(s) of ${resource.name}: ${missing.join(', ')}.`);
      }
      return values;
    });
    return this.write(access, async (tx) => {
      this.checkClientRows(tx, access);
      if (items.length > 1) await tx.lockAncestorsOfMany(resource, items.map((values) => ({ values })));
      for (const values of items) {
        const row = await tx.insert(resource, values);
        if (access.coversEveryRow('INSERT')) continue;
        const [permitted] = (await tx.store.test(resource, keyOf(resource, row), [(p) => this.predicate(resource, access, 'INSERT', p)])) ?? [false];
        if (!permitted) throw new ApiError(ErrorCode.FORBIDDEN, `Your roles do not permit inserting this ${resource.name}.`);
      }
    });
  }

  /** PUT on an object's URL (`keySegment` given) or on the collection (objects identified by href or key columns). */
  async update(resource: Resource, body: unknown, access: ResourceAccess, keySegment?: string, ifMatch?: string): Promise<VisibleEntry[]> {
    const items = bodyItems(body);
    if (keySegment !== undefined && items.length !== 1) {
      throw new ApiError(ErrorCode.BAD_REQUEST, 'A PUT on one object takes one JSON object.');
    }
    const writable = this.writablePredicate(resource, access, 'UPDATE');
    const changes = items.map((item) => {
      const metadata = metadataOf(item);
      const key = keySegment !== undefined ? parseKeySegment(resource, keySegment) : this.keyOfItem(resource, item, metadata.href);
      const checksum = metadata.checksum ?? (items.length === 1 ? ifMatch : undefined);
      if (!checksum) {
        throw new ApiError(ErrorCode.CHECKSUM_REQUIRED, 'An update needs the object\'s current checksum in @metadata.checksum (or "override").');
      }
      const keyColumns = new Set(resource.primaryKey.map((c) => c.name));
      const values = columnValues(resource, item, (name) => keyColumns.has(name) || writable(name));
      for (const column of resource.primaryKey) {
        if (column.name in values && values[column.name] !== key[resource.primaryKey.indexOf(column)]) {
          throw new ApiError(ErrorCode.UNKNOWN_COLUMN, `The primary key "${column.name}" cannot be changed.`);
        }
        delete values[column.name];
      }
      return { key, checksum, values };
    });
    return this.write(access, async (tx) => {
      this.checkClientRows(tx, access);
      if (changes.length > 1) await tx.lockAncestorsOfMany(resource, changes.map((c) => ({ key: c.key, values: c.values })));
      for (const change of changes) {
        await this.assertMayChange(tx.store, resource, change.key, access, 'UPDATE');
        await tx.update(resource, change.key, change.values, change.checksum);
        if (access.coversEveryRow('UPDATE')) continue;
        const [stillPermitted] = (await tx.store.test(resource, change.key, [(p) => this.predicate(resource, access, 'UPDATE', p)])) ?? [false];
        if (!stillPermitted) throw new ApiError(ErrorCode.FORBIDDEN, `Your roles do not permit this change: the ${resource.name} would leave the rows you may update.`);
      }
    });
  }

  async delete(resource: Resource, keySegment: string, checksum: string | undefined, access: ResourceAccess): Promise<VisibleEntry[]> {
    const key = parseKeySegment(resource, keySegment);
    if (!checksum) {
      throw new ApiError(ErrorCode.CHECKSUM_REQUIRED, `A delete needs the object's current checksum (?checksum=…, or "${CHECKSUM_OVERRIDE}").`);
    }
    return this.write(access, async (tx) => {
      await this.assertMayChange(tx.store, resource, key, access, 'DELETE');
      await tx.delete(resource, key, checksum);
    });
  }

  /**
   * Runs a write in the engine and returns its summary as the caller may see it (judged in the
   * transaction, on the values being committed); a failed constraint's message is rendered for
   * this caller (hidden values hidden).
   */
  private async write(access: ResourceAccess, work: (tx: WriteTransaction) => Promise<void>): Promise<VisibleEntry[]> {
    let visible: VisibleEntry[] = [];
    try {
      await this.engine.run(async (tx) => {
        tx.lastReads = async () => {
          visible = await this.summaryVisibility.of(tx.store, tx.summary.list(), access);
        };
        await work(tx);
      });
      return visible;
    } catch (error) {
      if (!(error instanceof ConstraintFailure)) throw error;
      const visible = await this.visibleColumns(error.resource, error.row, access.to(error.resource));
      throw new ApiError(ErrorCode.RULE_CONSTRAINT, error.messageFor(visible));
    }
  }

  /**
   * The columns of a row a rule refused that the caller may read. A grant counts only if it
   * admits the row both as committed (the transaction is rolled back by now; a row not in the
   * table yet has no committed state) and with the values the rule saw: uncommitted values alone
   * (a balance the refused line item would have raised) must not open a row no committed state
   * shows. No READ grant admitting it: nothing is visible.
   */
  private async visibleColumns(resource: Resource, row: CanonicalRow, access: ResourceAccess): Promise<(column: string) => boolean> {
    const reads = access.grantsFor('READ');
    let readable: ReadonlySet<string> | undefined;
    if (reads.length === 0) return () => false;
    if (access.coversEveryRow('READ') && !access.columnsVaryByRow) {
      readable = access.readable();
    } else {
      const filtered = reads.filter((g) => g.filter);
      const onValues = filtered.map((g) => (params: Params) =>
        access.grantPredicate(g, { columns: new ValuesColumnResolver(resource, this.registry, this.dialect, row), params, dialect: this.dialect }));
      const onCommitted = filtered.map((g) => (params: Params) => access.grantPredicate(g, this.roleSql(resource, params)));
      const [admits, committed] = await this.database.read(async (session) => {
        const store = this.reader(session);
        return [await store.testValues(onValues), await store.test(resource, keyOf(resource, row), onCommitted)] as const;
      });
      const admitting = reads.filter((g) => {
        const i = filtered.indexOf(g);
        return i < 0 || (admits[i] && (!committed || committed[i]));
      });
      if (admitting.length === 0) return () => false;
      readable = access.readableIn(admitting);
    }
    return (column) => !readable || readable.has(column);
  }

  /**
   * A row the caller inserts, or moves by an update, must land inside a granting role's
   * filter: judged on its final values just before its statement, so that a row outside
   * every filter is 403 whether or not its parent exists (the database's foreign key would
   * otherwise answer 422 for a missing parent only, telling which parents exist). The check
   * after the write stays: it also sees database defaults and what later rules changed.
   */
  private checkClientRows(tx: WriteTransaction, access: ResourceAccess): void {
    if (access.coversEveryRow('INSERT') && access.coversEveryRow('UPDATE')) return;
    tx.clientRowCheck = async (resource, row, verb) => {
      if (resource !== access.resource || access.coversEveryRow(verb)) return;
      const values = new ValuesColumnResolver(resource, this.registry, this.dialect, row);
      const [inside] = await tx.store.testValues([(params) => access.rowPredicate(verb, { columns: values, params, dialect: this.dialect }) ?? '(1=1)']);
      if (inside || values.incomplete) return; // a filter on a column the database fills: the check after the write decides
      throw new ApiError(
        ErrorCode.FORBIDDEN,
        verb === 'INSERT' ? `Your roles do not permit inserting this ${resource.name}.` : `Your roles do not permit this change: the ${resource.name} would leave the rows you may update.`,
      );
    };
  }

  /**
   * An update or delete acts only on rows a granting role's filter admits. A row the caller
   * cannot see at all answers 404 (its existence is not revealed); one it can read but not
   * change answers 403. A grant without a row filter admits every row: nothing to ask the
   * database (a missing row still answers 404, from the write's own locked read).
   */
  private async assertMayChange(store: RowStore, resource: Resource, key: KeyValues, access: ResourceAccess, operation: Operation): Promise<void> {
    if (access.coversEveryRow(operation)) return;
    const result = await store.test(resource, key, [
      (p) => this.predicate(resource, access, operation, p),
      (p) => this.predicate(resource, access, 'READ', p),
    ]);
    if (!result) throw new ApiError(ErrorCode.OBJECT_NOT_FOUND, `No ${resource.name} with that key.`);
    const [permitted, visible] = result;
    if (permitted) return;
    if (visible) throw new ApiError(ErrorCode.FORBIDDEN, `Your roles do not permit ${operation} on this ${resource.name}.`);
    throw new ApiError(ErrorCode.OBJECT_NOT_FOUND, `No ${resource.name} with that key.`);
  }

  private predicate(resource: Resource, access: ResourceAccess, operation: Operation, params: Params): string {
    return access.rowPredicate(operation, this.roleSql(resource, params)) ?? '(1=1)';
  }

  /** Role filters may name any column (they are the project's, not the caller's). */
  private roleSql(resource: Resource, params: Params): { columns: RegistryColumnResolver; params: Params; dialect: Dialect } {
    return { columns: new RegistryColumnResolver(resource, this.registry, this.dialect), params, dialect: this.dialect };
  }

  private writablePredicate(resource: Resource, access: ResourceAccess, operation: 'INSERT' | 'UPDATE'): (name: string) => boolean {
    const derived = this.engine.bank.for(resource).derived;
    const granted = access.writable(operation);
    return (name) => !derived.has(name) && (!granted || granted.has(name));
  }

  /**
   * When the caller's READ grants differ in columns and some are row-filtered, each row's
   * visible columns depend on which grants admit it: select one flag per filtered grant.
   */
  private visibilityFlags(resource: Resource, access: ResourceAccess, params: Params): {
    select: Array<{ alias: string; sql: string }>;
    readable: (extra: Record<string, unknown>) => ReadonlySet<string> | undefined;
  } {
    if (!access.columnsVaryByRow) {
      const readable = access.readable();
      return { select: [], readable: () => readable };
    }
    const grants = access.grantsFor('READ');
    const flagged: Array<{ grant: Grant; alias: string }> = [];
    const select = grants.flatMap((grant, i) => {
      if (!grant.filter) return [];
      const alias = `__grant_${i}`;
      flagged.push({ grant, alias });
      return [{ alias, sql: `CASE WHEN ${access.grantPredicate(grant, this.roleSql(resource, params))} THEN 1 ELSE 0 END` }];
    });
    return {
      select,
      readable: (extra) => access.readableIn(grants.filter((g) => !g.filter || flagged.some((f) => f.grant === g && Number(extra[f.alias]) === 1))),
    };
  }

  /** Reads outside a transaction: the pool, or SQLite's prepared statements (see `loneReads`). */
  private reader(session: DatabaseSession): RowStore {
    return new RowStore(session, this.dialect);
  }

  private keyOfItem(resource: Resource, item: Record<string, unknown>, href: string | undefined): KeyValues {
    if (href !== undefined) {
      const path = href.replace(/[?#].*$/, '');
      const marker = `/${resource.name}/`;
      const at = path.toLowerCase().lastIndexOf(marker.toLowerCase());
      if (at < 0) throw new ApiError(ErrorCode.BAD_REQUEST, `@metadata.href does not name a ${resource.name}.`);
      return parseKeySegment(resource, path.slice(at + marker.length));
    }
    const values = columnValues(resource, Object.fromEntries(resource.primaryKey.filter((c) => c.name in item).map((c) => [c.name, item[c.name]])), () => true);
    if (resource.primaryKey.some((c) => !(c.name in values))) {
      throw new ApiError(ErrorCode.BAD_REQUEST, `Each object needs @metadata.href or its key column(s): ${resource.primaryKey.map((c) => c.name).join(', ')}.`);
    }
    return keyOf(resource, values);
  }
}
