import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { keyOf, parseKeySegment, type KeyValues } from '../data/primary-key.js';
import type { OrderTerm } from '../data/query/ast.js';
import { parseFilter } from '../data/query/filter-parser.js';
import { combineSortTerms, parseOrder, parseSysOrder } from '../data/query/order-parser.js';
import { compileFilter, compileOrder } from '../data/query/sql-compiler.js';
import { parseSysFilter } from '../data/query/sysfilter-parser.js';
import { ResourceRegistry, type Resource } from '../data/resource-registry.js';
import { paramsFor, RowStore, type Params } from '../data/row-store.js';
import type { CanonicalRow, CanonicalValue } from '../data/value-codec.js';
import { excerpt } from '../data/query/limits.js';
import { Database, type DatabaseSession } from '../database/database.js';
import type { Dialect } from '../database/dialect.js';
import { LogicEngine } from '../logic/logic-engine.js';
import { CHECKSUM_OVERRIDE } from '../logic/write-transaction.js';
import { CallerColumnResolver } from '../security/caller-column-resolver.js';
import { roleFilterSql, type ResourceAccess } from '../security/resource-access.js';
import { readVisibility, type ReadVisibility } from '../security/read-visibility.js';
import { SecurityService } from '../security/security.service.js';
import type { VisibleEntry } from '../security/summary-visibility.js';
import type { ReadQuery } from './read-query.js';
import { bodyItems, columnValues, metadataOf, missingRequired } from './request-body.js';

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
 * parameterized SELECT with the roles' row filters; writes go through the logic engine, under
 * the caller's row policy (security), which it asks inside the transaction.
 */
@Injectable()
export class ResourcesService {
  private readonly dialect: Dialect;

  constructor(
    private readonly database: Database,
    private readonly registry: ResourceRegistry,
    private readonly engine: LogicEngine,
    private readonly security: SecurityService,
  ) {
    this.dialect = database.dialect;
  }

  async list(access: ResourceAccess, query: ReadQuery): Promise<ReadResult> {
    const resource = access.resource;
    const params = paramsFor(this.dialect);
    const extra = this.visibilityFlags(resource, access, params);
    const mine = { columns: new CallerColumnResolver(access, this.registry, this.dialect), params, dialect: this.dialect };
    const where: string[] = [
      ...query.filters.map((text) => compileFilter(parseFilter(text, FILTER_LIMITS), mine)),
      ...query.sysfilters.map((text) => compileFilter(parseSysFilter(text, FILTER_LIMITS), mine)),
    ];
    const rowFilter = access.rowPredicate('READ', roleFilterSql(resource, this.registry, this.dialect, params));
    if (rowFilter) where.push(rowFilter);
    const terms: OrderTerm[] = combineSortTerms([
      query.order !== undefined ? parseOrder(query.order) : [],
      query.sysorder !== undefined ? parseSysOrder(query.sysorder) : [],
    ]);
    // Pages are stable: every order ends with the primary key (whether or not the caller may read it).
    const keyTerms: OrderTerm[] = resource.primaryKey
      .filter((column) => !terms.some((t) => t.column.length === 1 && t.column[0] === column.name))
      .map((column) => ({ column: [column.name], direction: 'asc', caseInsensitive: false }));
    const orderBy = [...compileOrder(terms, mine), ...compileOrder(keyTerms, roleFilterSql(resource, this.registry, this.dialect, params))];
    const page = await this.database.read((session) =>
      this.reader(session).page(resource, { where, orderBy, extra: extra.select }, params, query.pageSize + 1, query.offset),
    );
    return {
      rows: page.slice(0, query.pageSize).map((p) => ({ row: p.row, readable: extra.readable(p.extra) })),
      hasMore: page.length > query.pageSize,
    };
  }

  async get(access: ResourceAccess, keySegment: string): Promise<VisibleRow | undefined> {
    const resource = access.resource;
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

  /**
   * One column's value in one row, as the caller's GET would show it: undefined when the row is
   * not there for the caller, 400 / 4003 for a column it may not read in that row.
   */
  async value(access: ResourceAccess, keySegment: string, columnName: string): Promise<CanonicalValue | undefined> {
    const column = access.resource.columnsByName.get(columnName);
    const unknown = (): ApiError => new ApiError(ErrorCode.UNKNOWN_COLUMN, `unknown column "${excerpt(columnName, 64)}"`);
    if (!column) throw unknown();
    const found = await this.get(access, keySegment);
    if (found?.readable && !found.readable.has(column.name)) throw unknown();
    return found ? (found.row[column.name] ?? null) : undefined;
  }

  async insert(access: ResourceAccess, body: unknown): Promise<VisibleEntry[]> {
    const resource = access.resource;
    const writable = this.writablePredicate(access, 'INSERT');
    const items = bodyItems(body).map((item) => {
      const values = columnValues(resource, item, (name) => writable(name) && !resource.columnsByName.get(name)!.generated);
      const missing = missingRequired(resource, values);
      if (missing.length > 0) {
        throw new ApiError(ErrorCode.BAD_REQUEST, `Missing required column(s) of ${resource.name}: ${missing.join(', ')}.`);
      }
      return values;
    });
    return this.engine.run(this.security.rowPolicy(access), async (tx) => {
      if (items.length > 1)
        await tx.lockAncestorsOfMany(
          resource,
          items.map((values) => ({ values })),
        );
      for (const values of items) await tx.insert(resource, values);
    });
  }

  /** PUT on an object's URL (`keySegment` given) or on the collection (objects identified by href or key columns). */
  async update(access: ResourceAccess, body: unknown, keySegment?: string, ifMatch?: string): Promise<VisibleEntry[]> {
    const resource = access.resource;
    const items = bodyItems(body);
    if (keySegment !== undefined && items.length !== 1) {
      throw new ApiError(ErrorCode.BAD_REQUEST, 'A PUT on one object takes one JSON object.');
    }
    const writable = this.writablePredicate(access, 'UPDATE');
    const changes = items.map((item) => {
      const metadata = metadataOf(item);
      const key = keySegment !== undefined ? parseKeySegment(resource, keySegment) : this.keyOfItem(resource, item, metadata.href);
      const checksum = metadata.checksum ?? (items.length === 1 ? ifMatch : undefined);
      if (!checksum) {
        throw new ApiError(
          ErrorCode.CHECKSUM_REQUIRED,
          'An update needs the object\'s current checksum in @metadata.checksum (or "override").',
        );
      }
      const keyColumns = new Set(resource.primaryKey.map((c) => c.name));
      const sent = columnValues(resource, item, (name) => keyColumns.has(name) || writable(name));
      resource.primaryKey.forEach((column, i) => {
        if (column.name in sent && sent[column.name] !== key[i]) {
          throw new ApiError(ErrorCode.UNKNOWN_COLUMN, `The primary key "${column.name}" cannot be changed.`);
        }
      });
      const values = Object.fromEntries(Object.entries(sent).filter(([name]) => !keyColumns.has(name)));
      return { key, checksum, values };
    });
    return this.engine.run(this.security.rowPolicy(access), async (tx) => {
      if (changes.length > 1)
        await tx.lockAncestorsOfMany(
          resource,
          changes.map((c) => ({ key: c.key, values: c.values })),
        );
      for (const change of changes) await tx.update(resource, change.key, change.values, change.checksum);
    });
  }

  async delete(access: ResourceAccess, keySegment: string, checksum: string | undefined): Promise<VisibleEntry[]> {
    const resource = access.resource;
    const key = parseKeySegment(resource, keySegment);
    if (!checksum) {
      throw new ApiError(
        ErrorCode.CHECKSUM_REQUIRED,
        `A delete needs the object's current checksum (?checksum=…, or "${CHECKSUM_OVERRIDE}").`,
      );
    }
    return this.engine.run(this.security.rowPolicy(access), (tx) => tx.delete(resource, key, checksum).then(() => undefined));
  }

  private writablePredicate(access: ResourceAccess, operation: 'INSERT' | 'UPDATE'): (name: string) => boolean {
    const derived = this.engine.derivedAttributes(access.resource);
    const granted = access.writable(operation);
    return (name) => !derived.has(name) && (!granted || granted.has(name));
  }

  /** Which columns each row shows the caller (see `readVisibility`). */
  private visibilityFlags(resource: Resource, access: ResourceAccess, params: Params): ReadVisibility {
    return readVisibility(resource, access, this.registry, this.dialect, params);
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
    const values = columnValues(
      resource,
      Object.fromEntries(resource.primaryKey.filter((c) => c.name in item).map((c) => [c.name, item[c.name]])),
      () => true,
    );
    if (resource.primaryKey.some((c) => !(c.name in values))) {
      throw new ApiError(
        ErrorCode.BAD_REQUEST,
        `Each object needs @metadata.href or its key column(s): ${resource.primaryKey.map((c) => c.name).join(', ')}.`,
      );
    }
    return keyOf(resource, values);
  }
}
