import { keyOf, rowIdentity, type KeyValues } from '../resources/primary-key.js';
import type { Resource } from '../resources/resource-registry.js';
import type { Verb } from '../resources/resource-serializer.js';
import type { CanonicalRow } from '../resources/value-codec.js';

export interface SummaryEntry {
  resource: Resource;
  verb: Verb;
  /** Final values (for DELETE: the values the row had). */
  row: CanonicalRow;
}

/**
 * Every row a transaction touched, once, in first-touch order, with its final values.
 * A row inserted and then changed stays an INSERT; a row inserted and then deleted vanishes.
 */
export class TransactionSummary {
  private readonly entries = new Map<string, SummaryEntry>();

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

  list(): SummaryEntry[] {
    return [...this.entries.values()];
  }
}
