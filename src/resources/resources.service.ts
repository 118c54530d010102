import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { parseKeySegment } from '../data/primary-key.js';
import type { OrderTerm } from '../data/query/ast.js';
import { parseFilter } from '../data/query/filter-parser.js';
import { combineSortTerms, parseOrder, parseSysOrder } from '../data/query/order-parser.js';
import { compileFilter, compileOrder } from '../data/query/sql-compiler.js';
import { parseSysFilter } from '../data/query/sysfilter-parser.js';
import { ResourceRegistry, type Resource } from '../data/resource-registry.js';
import { paramsFor, RowStore, type Params } from '../data/row-store.js';
import type { CanonicalRow } from '../data/value-codec.js';
import { Database, type DatabaseSession } from '../database/database.js';
import type { Dialect } from '../database/dialect.js';
import { LogicEngine } from '../logic/logic-engine.js';
import type { RuleLog } from '../logic/rule-log.js';
import { CHECKSUM_OVERRIDE } from '../logic/write-transaction.js';
import { CallerColumnResolver } from '../security/caller-column-resolver.js';
import { roleFilterSql, type ResourceAccess } from '../security/resource-access.js';
import type { Grant } from '../security/role-bank.js';
import { SecurityService } from '../security/security.service.js';
import type { VisibleEntry } from '../security/summary-visibility.js';
import type { ReadQuery } from './read-query.js';
import { bodyItems } from './request-body.js';
import { DocumentPlanner } from './write/document-plan.js';
import { DocumentWriter, type WriteOptions } from './write/document-writer.js';
import { isDuplicateKey } from './write/duplicate-key.js';
import type { WriteAction } from './write/write-action.js';
import { tableLevel, type WriteLevel } from './write/write-level.js';
import { documentLevel } from './write/document-level.js';
import type { ResourceLevel } from './custom/custom-resource-registry.js';

/** The level a write walks: a custom resource's (and those below it), or the table's own. */
function writeLevelOf(access: ResourceAccess, level: ResourceLevel | undefined): WriteLevel {
  return level ? documentLevel(level) : tableLevel(access.resource);
}

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

  /** A rule log when the request asks for a rule summary (`rulesummary=true`), else undefined: nothing is recorded. */
  ruleLogFor(rulesummary: unknown): RuleLog | undefined {
    if (rulesummary === undefined || rulesummary === 'false') return undefined;
    if (rulesummary === 'true') return this.engine.ruleLog();
    throw new ApiError(ErrorCode.BAD_REQUEST, 'rulesummary must be true or false.');
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
    const objects = new DocumentPlanner(byDefault).plan(level, items);
    const policy = this.security.rowPolicy(access);
    for (let attempt = 1; ; attempt++) {
      let writer: DocumentWriter | undefined;
      try {
        return await this.engine.run(
          policy,
          async (tx) => {
            writer = new DocumentWriter(tx, access, this.registry, (r) => this.engine.derivedAttributes(r), options);
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
    const key = parseKeySegment(resource, keySegment);
    if (!checksum) {
      throw new ApiError(
        ErrorCode.CHECKSUM_REQUIRED,
        `A delete needs the object's current checksum (?checksum=…, or "${CHECKSUM_OVERRIDE}").`,
      );
    }
    return this.engine.run(this.security.rowPolicy(access), (tx) => tx.delete(resource, key, checksum).then(() => undefined), ruleLog);
  }

  /**
   * When the caller's READ grants differ in columns and some are row-filtered, each row's
   * visible columns depend on which grants admit it: select one flag per filtered grant.
   */
  private visibilityFlags(
    resource: Resource,
    access: ResourceAccess,
    params: Params,
  ): {
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
      return [
        {
          alias,
          sql: `CASE WHEN ${access.grantPredicate(grant, roleFilterSql(resource, this.registry, this.dialect, params))} THEN 1 ELSE 0 END`,
        },
      ];
    });
    return {
      select,
      readable: (extra) =>
        access.readableIn(grants.filter((g) => !g.filter || flagged.some((f) => f.grant === g && Number(extra[f.alias]) === 1))),
    };
  }

  /** Reads outside a transaction: the pool, or SQLite's prepared statements (see `loneReads`). */
  private reader(session: DatabaseSession): RowStore {
    return new RowStore(session, this.dialect);
  }
}
