import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { parseKeySegment } from '../data/primary-key.js';
import { isKeyless, ResourceRegistry, type Resource } from '../data/resource-registry.js';
import type { CanonicalValue } from '../data/value-codec.js';
import { excerpt } from '../data/query/limits.js';
import { ApiSettings } from '../config/api-settings.js';
import type { FilterNode, OrderTerm } from '../data/query/ast.js';
import { Database } from '../database/database.js';
import { LogicEngine } from '../logic/logic-engine.js';
import type { RuleLog } from '../logic/rule-log.js';
import { CHECKSUM_OVERRIDE } from '../logic/write-transaction.js';
import { readOnlyViewError } from '../security/read-only-view.js';
import type { ResourceAccess } from '../security/resource-access.js';
import { SecurityService } from '../security/security.service.js';
import type { ReadQuery } from './read/read-query.js';
import { LevelReader, type LevelRow } from './read/level-reader.js';
import { tableLevel } from './levels/table-level.js';
import { bodyItems } from './write/document-body.js';
import { DocumentPlanner } from './write/document-plan.js';
import { DocumentWriter, type WriteOptions } from './write/document-writer.js';
import { isDuplicateKey } from './write/duplicate-key.js';
import type { DerivedSent } from './write/object-checks.js';
import type { WriteAction } from './write/write-action.js';
import type { WriteLevel } from './write/write-level.js';
import { documentLevel } from './write/document-level.js';
import { CustomResourceRegistry, type ResourceLevel } from './levels/custom-resource-registry.js';
import { inTerms, WrittenRows, type SummaryEntry } from './summary/summary-terms.js';
import { MixedLevels } from './write/mixed-levels.js';
import type { CallerGrants } from '../security/caller-access.decorator.js';
import { DocumentTransaction } from './document-transaction.js';

/** The level a write walks: a custom resource's (and those below it), or the table's own. */
function writeLevelOf(access: ResourceAccess, level: ResourceLevel | undefined): WriteLevel {
  return documentLevel(level ?? tableLevel(access.resource));
}

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

export interface ReadResult {
  rows: LevelRow[];
  hasMore: boolean;
}

/**
 * Reads and writes of project resources for one caller's access. Reads compile to one
 * parameterized SELECT with the roles' row filters; writes go through the logic engine, under
 * the caller's row policy (security), which it asks inside the transaction.
 */
@Injectable()
export class DocumentsService {
  private readonly reader: LevelReader;
  /** Values sent for derived attributes: ignored unless the API's Aggregate Default Override is on (see `DerivedSent`). */
  private readonly derivedSent: DerivedSent;

  constructor(
    database: Database,
    private readonly registry: ResourceRegistry,
    private readonly engine: LogicEngine,
    private readonly security: SecurityService,
    private readonly customResources: CustomResourceRegistry,
    settings: ApiSettings,
  ) {
    this.reader = new LevelReader(database, registry);
    this.derivedSent = settings.aggregateDefaultOverride ? 'compare' : 'ignore';
  }

  /** `named`: the table's named filters (ANDed) and orders (after the request's), bound (`tableQueries`). */
  async list(
    access: ResourceAccess,
    query: ReadQuery,
    named?: { userFilters: readonly FilterNode[]; userOrder: readonly OrderTerm[] },
  ): Promise<ReadResult> {
    const levelQuery = { request: query, extraFilters: named?.userFilters, extraOrder: named?.userOrder };
    const page = await this.reader.page(tableLevel(access.resource), access, levelQuery, query.pageSize + 1, query.offset);
    return { rows: page.slice(0, query.pageSize), hasMore: page.length > query.pageSize };
  }

  /**
   * How many rows a list with these filters would page through for this caller, up to `bound` (see
   * `RowStore.count`): the same conditions as `list`, the roles' READ row filters included, so it counts only
   * rows the caller could read.
   */
  async count(access: ResourceAccess, query: Pick<ReadQuery, 'filters' | 'sysfilters'>, bound: number): Promise<number> {
    return this.reader.count(tableLevel(access.resource), access, { request: query }, bound);
  }

  async get(access: ResourceAccess, keySegment: string): Promise<LevelRow | undefined> {
    const resource = access.resource;
    refuseKeyless(resource);
    const [found] = await this.reader.page(tableLevel(resource), access, { key: parseKeySegment(resource, keySegment) }, 1, 0);
    return found;
  }

  /** A rule log when one is wanted (`rulesummary=true`, `rulelog=true`, a debug log), else undefined: nothing is recorded. */
  ruleLogFor(wanted: boolean): RuleLog | undefined {
    return wanted ? this.engine.ruleLog() : undefined;
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

  /**
   * POST: a table resource's objects, or (`level` given) a custom resource's documents; an object
   * naming another resource (see `MixedLevels`) is written through that one's level.
   */
  async insert(access: ResourceAccess, body: unknown, ruleLog?: RuleLog, level?: ResourceLevel, version?: string): Promise<SummaryEntry[]> {
    return this.write(access, writeLevelOf(access, level), bodyItems(body), 'INSERT', { ruleLog, version });
  }

  /**
   * POST or PUT at the API root (LAC's "Mix and Match"): every object names its resource
   * (`@metadata.entity` or a full `@metadata.href`) and is written through that resource's level,
   * all in one transaction, each under the caller's grants on its own resource. An object without
   * `@metadata.action` is inserted (POST) or updated (PUT).
   */
  async writeAtRoot(
    grants: CallerGrants,
    body: unknown,
    byDefault: 'INSERT' | 'UPDATE',
    ifMatch?: string,
    ruleLog?: RuleLog,
    version?: string,
  ): Promise<SummaryEntry[]> {
    return this.write(grants, undefined, bodyItems(body), byDefault, { ifMatch, ruleLog, version });
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
    version?: string,
  ): Promise<SummaryEntry[]> {
    const items = bodyItems(body);
    if (keySegment !== undefined && items.length !== 1) {
      throw new ApiError(ErrorCode.BAD_REQUEST, 'A PUT on one object takes one JSON object.');
    }
    return this.write(access, writeLevelOf(access, level), items, 'UPDATE', { keySegment, ifMatch, ruleLog, version });
  }

  /**
   * Writes a body (a table resource's objects, or a custom resource's documents) in one
   * transaction, each object by its `@metadata.action` (`byDefault` when it names none). Two
   * MERGE_INSERTs of the same new key at once: the one that loses the race for the insert meets
   * the other's row as a duplicate key, and runs once more, as an update of that row. Objects
   * naming another resource are planned on its level (`MixedLevels`); without `level` (the API
   * root) every object must name one.
   */
  async write(
    grants: CallerGrants,
    level: WriteLevel | undefined,
    items: ReadonlyArray<Record<string, unknown>>,
    byDefault: WriteAction,
    options: WriteOptions,
  ): Promise<SummaryEntry[]> {
    if (level) refuseOnView(level.resource);
    const objects = new DocumentPlanner(byDefault).plan(
      level,
      items,
      new MixedLevels(this.registry, this.customResources, grants, options.version),
    );
    // The caller's access, bound to the request's resource (the first object's at the root): the writer and the
    // row policy ask it for every other resource (`to`).
    const resource = level?.resource ?? objects[0]?.level.resource;
    if (!resource) throw new ApiError(ErrorCode.BAD_REQUEST, 'The request body must hold at least one object to write.');
    const access = grants.to(resource);
    const policy = this.security.rowPolicy(access);
    for (let attempt = 1; ; attempt++) {
      let writer: DocumentWriter | undefined;
      try {
        const entries = await this.engine.run(
          policy,
          async (tx) => {
            writer = new DocumentWriter(tx, access, policy, (r) => this.engine.derivedAttributes(r), options, this.derivedSent);
            await writer.writeAll(objects);
          },
          options.ruleLog,
        );
        return inTerms(entries, writer!.written, this.registry.prefix);
      } catch (error) {
        if (attempt > 1 || !writer?.mergeInserted || !isDuplicateKey(error)) throw error;
      }
    }
  }

  /**
   * Runs `work` in ONE write transaction with the rules, for project code that writes (a function's POST): it
   * reads and writes table resources through `scope` under the caller's grants (`access`, and its `to` for other
   * resources), and the summary lists every row the work touched, as the caller may see it. The transaction
   * commits when `work` resolves and rolls back when it throws. Like every write, it runs again from the start
   * when it conflicts with a concurrent one (see `LogicEngine.run`): `work` may run more than once.
   */
  async inTransaction<T>(
    access: ResourceAccess,
    work: (scope: DocumentTransaction) => Promise<T>,
  ): Promise<{ value: T; entries: SummaryEntry[] }> {
    const policy = this.security.rowPolicy(access);
    let scope: DocumentTransaction | undefined;
    let value: T | undefined;
    const entries = await this.engine.run(policy, async (tx) => {
      scope = new DocumentTransaction(tx, this.registry, policy, (r) => this.engine.derivedAttributes(r), this.derivedSent);
      value = await work(scope);
    });
    return { value: value as T, entries: inTerms(entries, scope!.written, this.registry.prefix) };
  }

  /** DELETE of a table resource's row, or (`level` given) of a custom resource level's: the summary names that row in the level's terms. */
  async delete(
    access: ResourceAccess,
    keySegment: string,
    checksum: string | undefined,
    ruleLog?: RuleLog,
    level?: ResourceLevel,
  ): Promise<SummaryEntry[]> {
    const resource = access.resource;
    refuseOnView(resource);
    const key = parseKeySegment(resource, keySegment);
    if (!checksum) {
      throw new ApiError(
        ErrorCode.CHECKSUM_REQUIRED,
        `A delete needs the object's current checksum (?checksum=…, or "${CHECKSUM_OVERRIDE}").`,
      );
    }
    const entries = await this.engine.run(
      this.security.rowPolicy(access),
      (tx) => tx.delete(resource, key, checksum).then(() => undefined),
      ruleLog,
    );
    const written = new WrittenRows();
    written.add(writeLevelOf(access, level), key);
    return inTerms(entries, written, this.registry.prefix);
  }
}
