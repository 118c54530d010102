import { keyOf, rowIdentity, type KeyValues } from '../data/primary-key.js';
import type { Resource } from '../data/resource-registry.js';
import type { RowChange, Verb } from '../data/row-change.js';
import type { CanonicalRow } from '../data/value-codec.js';

/**
 * Every row a transaction touched, once, in first-touch order, with its final values.
 * A row inserted and then changed stays an INSERT; a row inserted and then deleted vanishes.
 */
export class TransactionSummary {
  private readonly entries = new Map<string, RowChange>();

  record(resource: Resource, verb: Verb, row: CanonicalRow): void {
    const id = rowIdentity(resource, keyOf(resource, row));
    const earlier = this.entries.get(id);
    if (!earlier) {
      this.entries.set(id, { resource, verb, row });
      return;
    }
    if (verb === 'DELETE' && earlier.verb === 'INSERT') {
      this.entries.delete(id);
      return;
    }
    earlier.row = row;
    if (verb === 'DELETE') earlier.verb = 'DELETE';
  }

  /** The latest values recorded for a row, if the transaction touched it. */
  latest(resource: Resource, key: KeyValues): CanonicalRow | undefined {
    return this.entries.get(rowIdentity(resource, key))?.row;
  }

  list(): RowChange[] {
    return [...this.entries.values()];
  }
}
