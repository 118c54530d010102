import type { Resource } from './resource-registry.js';
import type { CanonicalRow } from './value-codec.js';

/** What a write does to one row. */
export type Verb = 'INSERT' | 'UPDATE' | 'DELETE';

/** One row a transaction changed, with its final values (for DELETE: the values the row had). */
export interface RowChange {
  resource: Resource;
  verb: Verb;
  row: CanonicalRow;
}
