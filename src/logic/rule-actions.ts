import type { ColumnKey, EntityClass, RuleRow, RuleValues } from './rule-row.js';

/** An order for `query`: an attribute, ascending, or `-attribute`, descending. */
export type RuleOrder<E> = ColumnKey<E> | `-${ColumnKey<E>}`;

/** Which rows `query` returns: those whose attributes equal `where`'s values (null: IS NULL), in `order`, at most `limit`. */
export interface RuleQuery<E> {
  where?: RuleValues<E>;
  /** Ties and the rest are broken by the primary key, ascending. */
  order?: ReadonlyArray<RuleOrder<E>>;
  limit?: number;
  /**
   * Lock the rows for update (and, first, the ancestors their aggregates feed, in the engine's
   * order): what an event reads to decide what to write (an allocation's recipients).
   */
  lock?: boolean;
}

/**
 * What rule code may do to other rows (an event, an allocation), as the system: every write runs
 * through the rules as a client's would, with the system's rights (no role is asked), locking
 * ancestors first as every write does, and shows in the transaction summary. Writes run one at a
 * time, in the order the code makes them; writes that cause writes are cut off at the engine's
 * depth limit (500 / 5001). `key` is any object holding the primary-key attributes (a row will do).
 */
export interface RuleActions {
  /** Inserts a row; resolves to the row as written (generated key included). */
  insert<E>(entity: EntityClass<E>, values: RuleValues<E>): Promise<RuleRow<E>>;
  /** Updates the row with this key (404-like error when there is none); resolves to the row as written. */
  update<E>(entity: EntityClass<E>, key: RuleValues<E>, changes: RuleValues<E>): Promise<RuleRow<E>>;
  /** Deletes the row with this key, and its cascading children, through their rules. */
  delete<E>(entity: EntityClass<E>, key: RuleValues<E>): Promise<void>;
  /** The row with this key as this transaction sees it, or null; `lock` reads it for update. */
  read<E>(entity: EntityClass<E>, key: RuleValues<E>, options?: { lock?: boolean }): Promise<RuleRow<E> | null>;
  /** Rows of the entity (see `RuleQuery`). */
  query<E>(entity: EntityClass<E>, query?: RuleQuery<E>): Promise<Array<RuleRow<E>>>;
}

/** `RuleQuery` of any entity, as the engine handles it. */
export interface UntypedRuleQuery {
  where?: Record<string, unknown>;
  order?: readonly string[];
  limit?: number;
  lock?: boolean;
}

/** Only reading: what a commit-row event gets (the transaction's rows are all processed by then). */
export type RuleReads = Pick<RuleActions, 'read' | 'query'>;
