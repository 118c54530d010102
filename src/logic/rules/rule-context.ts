import type { ParentRelation, Resource, ResourceRegistry } from '../../data/resource-registry.js';
import type { RowStore } from '../../data/row-store.js';
import type { CanonicalRow } from '../../data/value-codec.js';
import type { RuleCounter } from '../../observability/metrics.js';
import type { EntityClass, Rule, RuleRow } from '../rule-dsl.js';
import type { UntypedRuleQuery } from '../rule-actions.js';
import type { DerivedChange } from '../rule-log.js';

/** What a rule may ask of the write transaction it runs in (the transaction implements it; rules never see the rest). */
export interface RuleContext {
  readonly store: RowStore;
  readonly registry: ResourceRegistry;
  /** Where a rule's executions are counted. */
  counterOf(rule: Rule): RuleCounter;
  /**
   * Notes that a rule ran on the row, with what a derivation did to its attribute (only when the
   * request asked for a rule summary or log, or the server logs at debug; absent otherwise).
   */
  readonly ruleFired?: (row: CanonicalRow, rule: Rule, change?: DerivedChange) => void;
  /** The parent row a child points to through `relation`, as this transaction sees it. */
  parentOf(relation: ParentRelation, row: CanonicalRow): Promise<CanonicalRow | undefined>;
  /** The project resource of an entity class. */
  resourceFor(entity: EntityClass): Resource;
  /** Inserts a row from an event (with every rule of its own), `depth` events deep. */
  insertFor(entity: EntityClass, values: RuleRow, depth: number): Promise<CanonicalRow>;
  /** Updates a row from an event, through its rules. */
  updateFor(entity: EntityClass, key: RuleRow, changes: RuleRow, depth: number): Promise<CanonicalRow>;
  /** Deletes a row from an event, through its rules. */
  deleteFor(entity: EntityClass, key: RuleRow, depth: number): Promise<void>;
  /** Reads a row for rule code (locked for update when `lock`). */
  readFor(entity: EntityClass, key: RuleRow, lock: boolean): Promise<CanonicalRow | undefined>;
  /** Rows for rule code (see `RuleQuery`). */
  queryFor(entity: EntityClass, query: UntypedRuleQuery, depth: number): Promise<CanonicalRow[]>;
}
