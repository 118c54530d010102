import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import { ApiSettings } from '../../config/api-settings.js';
import { ErrorCode } from '../../common/error-codes.js';
import { parseKeySegment } from '../../data/primary-key.js';
import type { FilterNode, OrderTerm } from '../../data/query/ast.js';
import { excerpt } from '../../data/query/limits.js';
import { FALSE_PREDICATE } from '../../data/query/sql-compiler.js';
import { ResourceRegistry } from '../../data/resource-registry.js';
import type { Params, RowStore } from '../../data/row-store.js';
import { quoteIdentifier } from '../../data/sql-dialect.js';
import type { CanonicalValue } from '../../data/value-codec.js';
import { Database } from '../../database/database.js';
import { roleFilterSql, type ResourceAccess } from '../../security/resource-access.js';
import type { ResourceLevel } from '../levels/custom-resource-registry.js';
import { LevelReader, type LevelQuery, type LevelRow } from './level-reader.js';
import type { ReadQuery } from './read-query.js';

/** What a read of a document asks, per level: the root's texts, named filters and orders, the levels' own texts, the page. */
export interface DocumentQuery {
  /** The root's filters, orders and paging. */
  root: ReadQuery;
  /** The request's filters and orders of the levels below the root, by level. */
  levels: ReadonlyMap<ResourceLevel, Omit<ReadQuery, 'pageSize' | 'offset'>>;
  /** Named filters, bound: ANDed at the root. */
  userFilters: readonly FilterNode[];
  /** Named orders' terms, after the request's order at the root. */
  userOrder: readonly OrderTerm[];
  /** Rows per level (per owner row below the root). */
  pageSize: number;
  /** The key of an owner row (`parent=`): the root's rows are those that belong to it. */
  parent?: string;
}

/** The objects of one sub-level under one owner row: a child level's first page (`more` when there are others), a parent's one row. */
export interface SubDocuments {
  level: ResourceLevel;
  nodes: DocumentNode[];
  more: boolean;
}

/**
 * One object of a document as read: its level, its row as the caller may see it, and, in the
 * level's order, the sub-levels the caller may read (a level it may not, or whose link to its
 * owner it may not, is left out).
 */
export interface DocumentNode {
  level: ResourceLevel;
  row: LevelRow;
  subs: SubDocuments[];
}

/** A document holds at most this many times PAGE_SIZE_MAX objects: pagesize applies per level, and levels multiply. */
const DOCUMENT_PAGES = 10;

/** The objects a document may still hold; counts only rows the caller reads, so its refusal tells nothing of hidden ones. */
class DocumentBudget {
  constructor(
    private left: number,
    private readonly max: number,
  ) {}

  get remaining(): number {
    return this.left;
  }

  /** @throws ApiError 400 / 4000 once more objects than the cap have been made. */
  take(count: number): void {
    this.left -= count;
    if (this.left < 0) {
      throw new ApiError(
        ErrorCode.BAD_REQUEST,
        `The document would hold more than ${this.max} objects (pagesize applies at every level); ask for a smaller pagesize, or filter its levels.`,
      );
    }
  }
}

/**
 * Reads documents: a level's rows (a page, one by key, or one attribute's value) and, below each,
 * its sub-levels' rows, one statement per level (see `LevelReader`) whatever the number of rows.
 * What a document looks like on the wire is the HTTP layer's (src/resources/).
 */
@Injectable()
export class DocumentReader {
  private readonly levels: LevelReader;
  /** A document holds at most `DOCUMENT_PAGES` times PAGE_SIZE_MAX objects. */
  private readonly pageSizeMax: number;

  constructor(
    private readonly database: Database,
    private readonly registry: ResourceRegistry,
    settings: ApiSettings,
  ) {
    this.levels = new LevelReader(database, registry);
    this.pageSizeMax = settings.pageSizeMax;
  }

  /** A page of the level's documents; `more` when a next page has some. */
  async list(level: ResourceLevel, access: ResourceAccess, query: DocumentQuery): Promise<{ nodes: DocumentNode[]; more: boolean }> {
    const conditions = query.parent !== undefined ? this.ownerConditions(level, access, query.parent) : [];
    const rows = await this.levels.page(level, access, this.rootQuery(query, { conditions }), query.pageSize + 1, query.root.offset);
    const nodes = await this.documents(level, access, rows.slice(0, query.pageSize), query);
    return { nodes, more: rows.length > query.pageSize };
  }

  /** The document with this key, if the caller may read its row (none or one). */
  async get(level: ResourceLevel, access: ResourceAccess, segment: string, query: DocumentQuery): Promise<DocumentNode[]> {
    const rows = await this.levels.page(level, access, this.rootQuery(query, { key: parseKeySegment(level.table, segment) }), 1, 0);
    return this.documents(level, access, rows, query);
  }

  /** One attribute's whole value: undefined when the row is not there for the caller; 400 / 4003 for one it may not read. */
  async value(level: ResourceLevel, access: ResourceAccess, segment: string, attributeName: string): Promise<CanonicalValue | undefined> {
    const unknown = (): ApiError =>
      new ApiError(ErrorCode.UNKNOWN_COLUMN, `${level.path} has no attribute "${excerpt(attributeName, 64)}" you may read.`);
    const attribute = level.attributeByName.get(attributeName);
    if (!attribute) throw unknown();
    const [found] = await this.levels.page(level, access, { key: parseKeySegment(level.table, segment) }, 1, 0);
    if (found?.readable && !found.readable.has(attribute.column.name)) throw unknown();
    return found ? (found.row[attribute.column.name] ?? null) : undefined;
  }

  private rootQuery(query: DocumentQuery, own: Pick<LevelQuery, 'conditions' | 'key'>): LevelQuery {
    return { request: query.root, extraFilters: query.userFilters, extraOrder: query.userOrder, ...own };
  }

  /**
   * `parent=<key>`: the level's rows that belong to that owner row, if the caller may read it and
   * the link's columns on both rows (as in the nested document, see `LevelReader.linkGuard`);
   * else none, as for an owner that does not exist.
   */
  private ownerConditions(
    level: ResourceLevel,
    access: ResourceAccess,
    segment: string,
  ): Array<(params: Params, store: RowStore) => string> {
    const link = level.link!;
    const owner = link.owner.table;
    const key = parseKeySegment(owner, segment);
    const ownerAccess = access.to(owner);
    const ownerGuard = this.levels.linkGuard(
      owner,
      ownerAccess,
      link.columns.map((pair) => pair.owner),
      'o',
    );
    const levelGuard = this.levels.linkGuard(
      level.table,
      access,
      link.columns.map((pair) => pair.level),
    );
    if (!ownerGuard || !levelGuard) return [() => FALSE_PREDICATE];
    const q = (name: string): string => quoteIdentifier(this.database.dialect, name);
    const exists = (params: Params, store: RowStore): string => {
      const conditions = [
        store.keyPredicate(owner, key, params, 'o'),
        ...link.columns.map((pair) => `${q('o')}.${q(pair.owner)} = ${q('t')}.${q(pair.level)}`),
      ];
      const rowFilter = ownerAccess.rowPredicate('READ', roleFilterSql(owner, this.registry, this.database.dialect, params, 'o'));
      if (rowFilter) conditions.push(rowFilter);
      conditions.push(...ownerGuard.map((guard) => guard(params)));
      return `EXISTS (SELECT 1 FROM ${q(owner.tableName)} ${q('o')} WHERE ${conditions.join(' AND ')})`;
    };
    return [exists, ...levelGuard];
  }

  private async documents(root: ResourceLevel, access: ResourceAccess, rows: LevelRow[], query: DocumentQuery): Promise<DocumentNode[]> {
    const max = this.pageSizeMax * DOCUMENT_PAGES;
    const budget = new DocumentBudget(max, max);
    budget.take(rows.length);
    const nodes = rows.map((row) => ({ level: root, row, subs: [] }));
    await this.fill(root, access, nodes, query, budget);
    return nodes;
  }

  /** Adds `level`'s sub-levels to its nodes, one statement per sub-level, then theirs, depth first. */
  private async fill(
    level: ResourceLevel,
    access: ResourceAccess,
    nodes: DocumentNode[],
    query: DocumentQuery,
    budget: DocumentBudget,
  ): Promise<void> {
    if (nodes.length === 0) return;
    for (const sub of level.subLevels) {
      const subAccess = access.to(sub.table);
      // Left out: a level the caller may not read, or whose link to its owner it may not (see LevelReader.linkGuard).
      const guard = this.levels.linkGuard(
        sub.table,
        subAccess,
        sub.link!.columns.map((pair) => pair.level),
      );
      if (!guard) continue;
      const ownerColumns = sub.link!.columns.map((pair) => pair.owner);
      const linked = nodes.filter((n) => !n.row.readable || ownerColumns.every((c) => n.row.readable!.has(c)));
      const child = sub.kind === 'child';
      const grouped = await this.levels.ofOwners(
        sub,
        subAccess,
        { request: query.levels.get(sub), conditions: guard },
        linked.map((n) => n.row.row),
        query.pageSize + 1,
        budget.remaining,
      );
      const subNodes: DocumentNode[] = [];
      for (const owner of linked) {
        const found = grouped.get(this.levels.ownerKey(sub, owner.row.row)) ?? [];
        const shown = (child ? found.slice(0, query.pageSize) : found.slice(0, 1)).map((row) => ({ level: sub, row, subs: [] }));
        subNodes.push(...shown);
        owner.subs.push({ level: sub, nodes: shown, more: child && found.length > query.pageSize });
      }
      budget.take(subNodes.length);
      await this.fill(sub, subAccess, subNodes, query, budget);
    }
  }
}
