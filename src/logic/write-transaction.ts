import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { rowChecksum } from '../resources/checksum.js';
import type { KeyValues } from '../resources/primary-key.js';
import type { Resource, ResourceRegistry } from '../resources/resource-registry.js';
import type { RowStore } from '../resources/sql/row-store.js';
import type { CanonicalRow } from '../resources/value-codec.js';
import { TransactionSummary } from './transaction-summary.js';

/** `override` skips the optimistic-lock check (spec §4.8). */
export const CHECKSUM_OVERRIDE = 'override';

/**
 * One request's changes, inside one database transaction. Every write to a project table
 * goes through here, so the checksum check, the row lock and the transaction summary are
 * the same for every verb.
 */
export class WriteTransaction {
  readonly summary = new TransactionSummary();

  constructor(
    readonly store: RowStore,
    readonly registry: ResourceRegistry,
  ) {}

  async insert(resource: Resource, values: CanonicalRow): Promise<CanonicalRow> {
    const key = await this.store.insert(resource, values);
    const row = await this.mustFind(resource, key);
    this.summary.record(resource, 'INSERT', row);
    return row;
  }

  /** Locks the row, checks the checksum, applies the changed columns. */
  async update(resource: Resource, key: KeyValues, changes: CanonicalRow, checksum: string): Promise<CanonicalRow> {
    const before = await this.lockAndCheck(resource, key, checksum);
    const changed = Object.fromEntries(Object.entries(changes).filter(([name, value]) => before[name] !== value));
    if (Object.keys(changed).length === 0) {
      this.summary.record(resource, 'UPDATE', before);
      return before;
    }
    await this.store.update(resource, key, changed);
    const after = await this.mustFind(resource, key);
    this.summary.record(resource, 'UPDATE', after);
    return after;
  }

  /** Locks the row, checks the checksum, deletes it and (first) its cascading children. */
  async delete(resource: Resource, key: KeyValues, checksum: string): Promise<CanonicalRow> {
    const row = await this.lockAndCheck(resource, key, checksum);
    await this.deleteRow(resource, row, key);
    return row;
  }

  private async deleteRow(resource: Resource, row: CanonicalRow, key: KeyValues): Promise<void> {
    for (const link of resource.children) {
      const child = this.registry.get(link.child);
      const relation = child.parents.find((p) => p.name === link.via)!;
      if (relation.onDelete !== 'CASCADE') continue;
      for (const childRow of await this.store.findChildren(child, relation, row, true)) {
        await this.deleteRow(child, childRow, child.primaryKey.map((c) => childRow[c.name] ?? null));
      }
    }
    await this.store.delete(resource, key);
    this.summary.record(resource, 'DELETE', row);
  }

  private async lockAndCheck(resource: Resource, key: KeyValues, checksum: string): Promise<CanonicalRow> {
    const row = await this.store.findByKey(resource, key, true);
    if (!row) throw new ApiError(ErrorCode.OBJECT_NOT_FOUND, `No ${resource.name} with that key.`);
    if (checksum !== CHECKSUM_OVERRIDE && checksum !== rowChecksum(resource, row)) {
      throw new ApiError(ErrorCode.CHECKSUM_MISMATCH, `The ${resource.name} was changed by someone else; read it again and retry with its current checksum.`);
    }
    return row;
  }

  private async mustFind(resource: Resource, key: KeyValues): Promise<CanonicalRow> {
    const row = await this.store.findByKey(resource, key, false);
    if (!row) throw new Error(`row of ${resource.name} vanished inside its own transaction`);
    return row;
  }
}
