import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../common/api-error.js';
import { ApiSettings } from '../common/api-settings.js';
import { ErrorCode } from '../common/error-codes.js';
import { DatabaseGate } from '../database/database-gate.js';
import { LogicEngine } from '../logic/logic-engine.js';
import type { SummaryEntry } from '../logic/transaction-summary.js';
import { CHECKSUM_OVERRIDE } from '../logic/write-transaction.js';
import { RegistryColumnResolver } from './column-resolver.js';
import { keyOf, parseKeySegment, type KeyValues } from './primary-key.js';
import { parseFilter } from './query/filter-parser.js';
import type { OrderTerm } from './query/ast.js';
import { combineSortTerms, parseOrder, parseSysOrder } from './query/order-parser.js';
import { compileFilter, compileOrder } from './query/sql-compiler.js';
import { parseSysFilter } from './query/sysfilter-parser.js';
import type { ReadQuery } from './read-query.js';
import { bodyItems, columnValues, metadataOf, missingRequired } from './request-body.js';
import { ResourceRegistry, type Resource } from './resource-registry.js';
import { dialectOf, type Dialect } from './sql-dialect.js';
import { paramsFor, RowStore } from './sql/row-store.js';
import type { CanonicalRow } from './value-codec.js';

const FILTER_LIMITS = { maxLength: 4096, maxNodes: 200 };

export interface ReadResult {
  rows: CanonicalRow[];
  hasMore: boolean;
}

/** Reads and writes of project resources. Reads compile to one parameterized SELECT; writes go through the logic engine. */
@Injectable()
export class ResourcesService {
  private readonly dialect: Dialect;

  constructor(
    private readonly dataSource: DataSource,
    readonly registry: ResourceRegistry,
    private readonly settings: ApiSettings,
    private readonly engine: LogicEngine,
    @Inject(DatabaseGate) private readonly gate: DatabaseGate,
  ) {
    this.dialect = dialectOf(dataSource);
  }

  resource(name: string): Resource {
    return this.registry.get(name);
  }

  async list(resource: Resource, query: ReadQuery): Promise<ReadResult> {
    const params = paramsFor(this.dialect);
    const ctx = { columns: new RegistryColumnResolver(resource, this.registry, this.dialect), params, dialect: this.dialect };
    const where: string[] = [
      ...query.filters.map((text) => compileFilter(parseFilter(text, FILTER_LIMITS), ctx)),
      ...query.sysfilters.map((text) => compileFilter(parseSysFilter(text, FILTER_LIMITS), ctx)),
    ];
    const terms: OrderTerm[] = combineSortTerms([
      query.order !== undefined ? parseOrder(query.order) : [],
      query.sysorder !== undefined ? parseSysOrder(query.sysorder) : [],
    ]);
    for (const column of resource.primaryKey) {
      if (!terms.some((t) => t.column.length === 1 && t.column[0] === column.name)) {
        terms.push({ column: [column.name], direction: 'asc', caseInsensitive: false });
      }
    }
    const orderBy = compileOrder(terms, ctx);
    const rows = await this.gate.read(() => this.reader().page(resource, where, orderBy, params, query.pageSize + 1, query.offset));
    return { rows: rows.slice(0, query.pageSize), hasMore: rows.length > query.pageSize };
  }

  /** Reads outside a transaction use the pool directly. */
  private reader(): RowStore {
    return new RowStore({ query: (sql: string, values?: unknown[]) => this.dataSource.query(sql, values) }, this.dialect);
  }

  async get(resource: Resource, keySegment: string): Promise<CanonicalRow | undefined> {
    const key = parseKeySegment(resource, keySegment);
    return this.gate.read(() => this.reader().findByKey(resource, key, false));
  }

  async insert(resource: Resource, body: unknown): Promise<SummaryEntry[]> {
    const items = bodyItems(body).map((item) => {
      const derived = this.engine.bank.for(resource).derived;
      const values = columnValues(resource, item, (name) => !resource.columnsByName.get(name)!.generated && !derived.has(name));
      const missing = missingRequired(resource, values);
      if (missing.length > 0) {
        throw new ApiError(ErrorCode.BAD_REQUEST, `Missing required column(s) of ${resource.name}: ${missing.join(', ')}.`);
      }
      return values;
    });
    return this.engine.run(async (tx) => {
      for (const values of items) await tx.insert(resource, values);
    });
  }

  /** PUT on an object's URL (`keySegment` given) or on the collection (objects identified by href or key columns). */
  async update(resource: Resource, body: unknown, keySegment?: string, ifMatch?: string): Promise<SummaryEntry[]> {
    const items = bodyItems(body);
    if (keySegment !== undefined && items.length !== 1) {
      throw new ApiError(ErrorCode.BAD_REQUEST, 'A PUT on one object takes one JSON object.');
    }
    const changes = items.map((item) => {
      const metadata = metadataOf(item);
      const key = keySegment !== undefined ? parseKeySegment(resource, keySegment) : this.keyOfItem(resource, item, metadata.href);
      const checksum = metadata.checksum ?? (items.length === 1 ? ifMatch : undefined);
      if (!checksum) {
        throw new ApiError(ErrorCode.CHECKSUM_REQUIRED, 'An update needs the object\'s current checksum in @metadata.checksum (or "override").');
      }
      const derived = this.engine.bank.for(resource).derived;
      const values = columnValues(resource, item, (name) => !derived.has(name));
      for (const column of resource.primaryKey) {
        if (column.name in values && values[column.name] !== key[resource.primaryKey.indexOf(column)]) {
          throw new ApiError(ErrorCode.UNKNOWN_COLUMN, `The primary key "${column.name}" cannot be changed.`);
        }
        delete values[column.name];
      }
      return { key, checksum, values };
    });
    return this.engine.run(async (tx) => {
      for (const change of changes) await tx.update(resource, change.key, change.values, change.checksum);
    });
  }

  async delete(resource: Resource, keySegment: string, checksum: string | undefined): Promise<SummaryEntry[]> {
    const key = parseKeySegment(resource, keySegment);
    if (!checksum) {
      throw new ApiError(ErrorCode.CHECKSUM_REQUIRED, `A delete needs the object's current checksum (?checksum=…, or "${CHECKSUM_OVERRIDE}").`);
    }
    return this.engine.run(async (tx) => {
      await tx.delete(resource, key, checksum);
    });
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
