import type { Resource, ResourceRegistry } from '../data/resource-registry.js';
import type { CanonicalRow } from '../data/value-codec.js';
import type { Rows } from '../database/database.js';
import type { WriteTransaction } from '../logic/write-transaction.js';
import type { CallerRowPolicy } from '../security/caller-row-policy.js';
import { readOnlyViewError } from '../security/read-only-view.js';
import type { ResourceAccess } from '../security/resource-access.js';
import { tableLevel } from './levels/table-level.js';
import { LevelReader, type LevelQuery, type LevelRow, type ReadScope } from './read/level-reader.js';
import { WrittenRows } from './summary/summary-terms.js';
import { bodyItems } from './write/document-body.js';
import { documentLevel } from './write/document-level.js';
import { DocumentPlanner } from './write/document-plan.js';
import { DocumentWriter, type WriteOptions } from './write/document-writer.js';
import type { DerivedSent } from './write/object-checks.js';
import type { WriteAction } from './write/write-action.js';

/** The reads of a reader inside an open write transaction: its statements on the transaction's connection. */
function readsIn(tx: WriteTransaction): ReadScope {
  const session = { query: (sql: string, values?: unknown[]) => tx.store.runner.query(sql, values) as Promise<Rows> };
  return { dialect: tx.store.dialect, read: (work) => work(session) };
}

/**
 * One caller's reads and writes of table resources inside ONE write transaction with the rules (see
 * `DocumentsService.inTransaction`), for project code that writes (a function's POST): reads see the
 * transaction's own writes, through the one reader (the caller's READ filters and columns); each write is
 * planned and carried out by the document writer under the caller's grants and row policy, as a client's
 * body would be. Every row written is listed in the one summary of the transaction.
 */
export class DocumentTransaction {
  readonly written = new WrittenRows();
  private readonly reader: LevelReader;

  constructor(
    private readonly tx: WriteTransaction,
    registry: ResourceRegistry,
    private readonly policy: CallerRowPolicy,
    private readonly derived: (resource: Resource) => ReadonlySet<string>,
    private readonly derivedSent: DerivedSent,
  ) {
    this.reader = new LevelReader(readsIn(tx), registry);
  }

  /** A page of a table's rows as the caller may read them, in this transaction. */
  page(access: ResourceAccess, query: LevelQuery, limit: number, offset: number): Promise<LevelRow[]> {
    return this.reader.page(tableLevel(access.resource), access, query, limit, offset);
  }

  /** Writes objects of a table resource (`body`: one object or an array) as a client's body would be; answers their rows as written. */
  async write(
    access: ResourceAccess,
    body: unknown,
    byDefault: WriteAction,
    options: WriteOptions,
  ): Promise<Array<CanonicalRow | undefined>> {
    if (access.resource.view) throw readOnlyViewError(access.resource);
    const objects = new DocumentPlanner(byDefault).plan(documentLevel(tableLevel(access.resource)), bodyItems(body));
    const writer = new DocumentWriter(this.tx, access, this.policy, this.derived, options, this.derivedSent, this.written);
    return writer.writeAll(objects);
  }
}
