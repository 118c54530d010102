import type { KeyValues } from '../data/primary-key.js';
import type { Resource } from '../data/resource-registry.js';
import type { RowChange } from '../data/row-change.js';
import type { RowStore } from '../data/row-store.js';
import type { CanonicalRow } from '../data/value-codec.js';
import type { Unsettled } from '../data/values-column-resolver.js';
import type { ConstraintViolation } from '../database/errors/constraint-violations.js';
import type { ConstraintFailure } from './constraint-failure.js';

/**
 * What the engine asks of the caller's rights while it runs a client's write; the security
 * module implements it for each caller (`CallerRowPolicy`). Rules run with the system's
 * rights: only the rows the client itself names are asked about, and every question is
 * answered inside the write's transaction, on its store, so the answer and the write agree.
 * A refusal is thrown (an ApiError: 403 / 4030, or 404 / 4041 where the row must not be
 * revealed).
 */
export interface RowPolicy<Shown = RowChange> {
  /** Before a client's update or delete touches the row (a row the caller cannot see must look missing). */
  mayChange(store: RowStore, resource: Resource, key: KeyValues, verb: 'UPDATE' | 'DELETE'): Promise<void>;
  /** Before a client's object is compared with a row it may only read (a round trip): a row the caller cannot see is 404. */
  maySee(store: RowStore, resource: Resource, key: KeyValues): Promise<void>;
  /**
   * A client's row with the values it is about to be written with, before its statement (and
   * before the database's foreign keys can answer). Columns `unsettled` names are not known yet
   * (rules or an earlier object of the request will set them): a filter that reads one is left to `mayKeep`.
   */
  mayWrite(store: RowStore, resource: Resource, row: CanonicalRow, verb: 'INSERT' | 'UPDATE', unsettled?: Unsettled): Promise<void>;
  /** The client's row as written, once its rules have run (database defaults and later rule changes included). */
  mayKeep(store: RowStore, resource: Resource, key: KeyValues, verb: 'INSERT' | 'UPDATE'): Promise<void>;
  /** The transaction summary as the caller may see it: judged last, inside the transaction, on the values being committed. */
  summary(store: RowStore, changes: readonly RowChange[]): Promise<Shown[]>;
  /** A failed constraint's message for the caller (values it may not read hidden), after the rollback. */
  explain(failure: ConstraintFailure): Promise<string>;
  /**
   * A constraint the database refused, as the caller may hear it: the table, columns and the
   * referenced table only where the caller's roles may read them; undefined when not even the
   * table may be named.
   */
  shownViolation(violation: ConstraintViolation): ConstraintViolation | undefined;
}
