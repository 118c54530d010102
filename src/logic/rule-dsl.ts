/**
 * The rule DSL: declarative business logic for the project's tables, declared in
 * `src/project/rules.ts` and run by the logic engine inside every write transaction.
 *
 * Names are checked by the compiler against the entity classes: attributes are the entity's
 * column properties (which the API names after the columns), `via` a many-to-one relation
 * property of the child that leads to the parent, `uses` own attributes or
 * `<relation>.<parentAttribute>`, `copy.from` an attribute of the parent. The rule bank checks
 * them again against the entity metadata at boot (see `RuleBank`).
 *
 * Rule code gets rows typed from the entity (`RuleRow<Customer>`, see `rule-row.ts`): decimal
 * columns (declared `DecimalString`) are `Decimal` objects (decimal.js, exact), integers
 * numbers, booleans booleans, dates and date-times ISO strings, and NULL is `null`.
 *
 * `via` may be left out when exactly one many-to-one relation of the child leads to the parent;
 * the bank finds it at boot, and stops the boot naming the candidates when there are none or
 * several.
 *
 * A formula's `compute` sees only what its `uses` list (the compiler holds it to that), and it
 * must be a pure function of them: the engine recomputes it only when one of them changes. At
 * boot the bank also runs each `compute` on sample rows (typical values, zeros, nulls, parents
 * present and absent) that record what it reads; a read of anything its `uses` do not list
 * stops the boot, naming the formula and the attribute. Exceptions thrown on the sample values
 * are ignored (the reads before them count), and so are `toString`, `valueOf`, `then`,
 * `toJSON` and symbol keys, which JavaScript and decimal.js look up on any object.
 *
 * `old` is the row as it was before the change being processed, as this transaction read it
 * under its lock (never a stale read): null on an insert. A row changed several times in one
 * transaction (a parent adjusted by several children) has the values before each change, as
 * LogicBank's `old_row` and LAC's `oldRow` do. Constraints get it as `check(row, old)`,
 * formulas as `compute(row, old)` (only the attributes their `uses` list: reading `old.qty`
 * needs `'qty'` in `uses`, and the dry run holds it to that), events as `event.old`.
 *
 * ```ts
 * sum({ parent: Customer, attr: 'balance', children: Purchaseorder, childAttr: 'amount_total',
 *       where: (order) => order.paid === false })
 * formula({ entity: Lineitem, attr: 'amount', uses: ['qty_ordered', 'product_price'],
 *           compute: (item) => D(item.product_price).times(item.qty_ordered) })
 * ```
 */
import { Decimal } from 'decimal.js';

import type { Verb } from '../data/row-change.js';
import type {
  ColumnKey,
  EntityClass,
  FormulaOld,
  FormulaRow,
  NumericKey,
  ParentKey,
  ParentKeyTo,
  ParentOf,
  RuleRow,
  RuleValues,
  Use,
} from './rule-row.js';
import type { RuleActions } from './rule-actions.js';
import type { AllocateRule, CommitRowRule } from './rule-dsl-rows.js';

export { allocate, commitRow, type AllocateRule, type CommitRowEvent, type CommitRowRule } from './rule-dsl-rows.js';
export type { RuleActions, RuleQuery, RuleReads } from './rule-actions.js';

export type { EntityClass, RuleRow, RuleValues, Verb };

/** Decimal of a value, with null and undefined read as 0: `D(item.product_price).times(item.qty_ordered)`. */
export function D(value: Decimal.Value | null | undefined): Decimal {
  return new Decimal(value ?? 0);
}

export interface AggregateRule {
  kind: 'sum' | 'count' | 'min' | 'max';
  parent: EntityClass;
  attr: string;
  children: EntityClass;
  /** The child's relation to the parent; absent: the only one there is (resolved by the bank). */
  via?: string;
  /** The summed (min, max) child attribute; absent for count. */
  childAttr?: string;
  /** Only children for which this is true take part. */
  where?: (child: RuleRow) => boolean;
  /** sum and count: a child whose parent does not exist yet inserts it (a managed parent; see `sum`). */
  insertParent?: boolean;
}

export interface FormulaRule {
  kind: 'formula';
  entity: EntityClass;
  attr: string;
  /** Attributes the formula reads: its own (`qty_ordered`) or a parent's (`purchaseorder.paid`). */
  uses: readonly string[];
  /** `old`: the row before the change (null on insert), its `uses` attributes only. */
  compute: (row: RuleRow, old: RuleRow | null) => unknown;
}

export interface CopyRule {
  kind: 'copy';
  entity: EntityClass;
  attr: string;
  /** The relation to copy through; absent: the only one that leads to `parent`. */
  via?: string;
  parent?: EntityClass;
  from: string;
}

export interface ConstraintRule {
  kind: 'constraint' | 'commitConstraint';
  entity: EntityClass;
  /** `old`: the row before the change (null on insert; always null for a commit constraint). */
  check: (row: RuleRow, old: RuleRow | null) => boolean;
  /** May name attributes in braces, with a format: "balance {balance|money} exceeds {credit_limit}" (see `message-format.ts`). */
  message: string;
}

/** A child's foreign key must name an existing parent row (for relations the schema does not enforce, or enforces late). */
export interface ParentCheckRule {
  kind: 'parentCheck';
  /** The child. */
  entity: EntityClass;
  parent: EntityClass;
  /** The child's relation to the parent; absent: the only one there is (resolved by the bank). */
  via?: string;
  /** Placeholders name the child's attributes, as in a constraint's message. */
  message: string;
}

/** What an event handler gets. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- without a type argument, the untyped row (see RuleRow)
export interface RowEvent<T = any> extends RuleActions {
  verb: Verb;
  /** The row's values; an `early` handler may change them. */
  row: RuleRow<T>;
  /** The values before this change (null on INSERT). */
  old: RuleRow<T> | null;
  /** True when the attribute's value differs from `old` (always true on INSERT). */
  changed(attr: ColumnKey<T>): boolean;
}

export interface EventRule {
  kind: 'early' | 'after';
  entity: EntityClass;
  on: Verb[];
  run: (event: RowEvent) => void | Promise<void>;
}

export interface CommitEvent {
  /** Every row the transaction touched so far (rows of any resource: untyped). */
  touched: Array<{ resource: string; verb: Verb; row: RuleRow }>;
}

export interface CommitRule {
  kind: 'commit';
  run: (event: CommitEvent) => void | Promise<void>;
}

export type Rule =
  AggregateRule | FormulaRule | CopyRule | ConstraintRule | ParentCheckRule | EventRule | CommitRule | AllocateRule | CommitRowRule;

interface AggregateSpec<P, C> {
  parent: EntityClass<P>;
  attr: ColumnKey<P>;
  children: EntityClass<C>;
  /** The child's many-to-one relation property that leads to the parent; may be left out when there is only one. */
  via?: ParentKeyTo<C, P>;
  where?: (child: RuleRow<C>) => boolean;
}

// The typed callbacks are stored untyped: the engine calls them with rows of the right entity.
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- a deliberate, named cast: F is the stored callback type
const untyped = <F>(callback: unknown): F => callback as F;

function aggregate<P, C>(kind: AggregateRule['kind'], spec: AggregateSpec<P, C> & { childAttr?: string }): AggregateRule {
  return { kind, ...spec, where: untyped<AggregateRule['where']>(spec.where) };
}

/**
 * parent.attr = Σ child.childAttr over the children that pass `where`. With `insertParent: true`
 * (a managed parent, LAC's rule type 13, LogicBank's `insert_parent`), a child written with a
 * parent key no row has yet inserts the parent first: its key from the child's foreign key, the
 * rest the columns' defaults, through the parent's own rules, under the same locks.
 */
export function sum<P, C>(spec: AggregateSpec<P, C> & { childAttr: NumericKey<C>; insertParent?: boolean }): AggregateRule {
  return aggregate('sum', spec);
}

/** parent.attr = the number of children that pass `where`; `insertParent` as for `sum`. */
export function count<P, C>(spec: AggregateSpec<P, C> & { insertParent?: boolean }): AggregateRule {
  return aggregate('count', spec);
}

/** parent.attr = the smallest child.childAttr (null without children). */
export function min<P, C>(spec: AggregateSpec<P, C> & { childAttr: NumericKey<C> }): AggregateRule {
  return aggregate('min', spec);
}

/** parent.attr = the largest child.childAttr (null without children). */
export function max<P, C>(spec: AggregateSpec<P, C> & { childAttr: NumericKey<C> }): AggregateRule {
  return aggregate('max', spec);
}

/**
 * row.attr = compute(row, old), re-derived whenever an attribute in `uses` changes. `compute`
 * sees only the `uses` attributes (of `old` too: the row before the change, null on insert) and
 * must read nothing else (checked at boot, see the module comment).
 */
export function formula<T, const U extends readonly Use<T>[]>(spec: {
  entity: EntityClass<T>;
  attr: ColumnKey<T>;
  uses: U;
  compute: (row: FormulaRow<T, U[number]>, old: FormulaOld<T, U[number]> | null) => unknown;
}): FormulaRule {
  return { kind: 'formula', ...spec, compute: untyped<FormulaRule['compute']>(spec.compute) };
}

/** row.attr = parent.from through the relation `via`, copied when the row is inserted or re-parented (not later). */
export function copy<T, const V extends ParentKey<T>>(spec: {
  entity: EntityClass<T>;
  attr: ColumnKey<T>;
  via: V;
  from: ColumnKey<ParentOf<T, V>>;
}): CopyRule;
/** row.attr = parent.from, through the only relation of the row that leads to `parent` (or `via`, when there are several). */
export function copy<T, P>(spec: {
  entity: EntityClass<T>;
  attr: ColumnKey<T>;
  parent: EntityClass<P>;
  via?: ParentKeyTo<T, P>;
  from: ColumnKey<P>;
}): CopyRule;
export function copy(spec: Omit<CopyRule, 'kind'>): CopyRule {
  return { kind: 'copy', ...spec };
}

/**
 * Checked after the row's derivations, with the row before the change (`old`, null on insert);
 * failure rolls back the transaction (422 / 4220) with the message (placeholders and formats:
 * see `message-format.ts`; `{old.attr}` names the value before the change).
 */
export function constraint<T>(spec: {
  entity: EntityClass<T>;
  check: (row: RuleRow<T>, old: RuleRow<T> | null) => boolean;
  message: string;
}): ConstraintRule {
  return { kind: 'constraint', ...spec, check: untyped<ConstraintRule['check']>(spec.check) };
}

/**
 * On insert, and on an update that changes the foreign key, the parent row the child's key
 * names must exist (a key with a null column names none and passes, as in SQL); otherwise
 * 422 / 4220 with the message. For relations the schema does not enforce, or enforces only at
 * commit. The parent is read with the system's rights, under a lock (a concurrent delete of it
 * waits), so the answer tells no more than the database's foreign key would.
 */
export function parentCheck<C, P>(spec: {
  child: EntityClass<C>;
  parent: EntityClass<P>;
  via?: ParentKeyTo<C, P>;
  message: string;
}): ParentCheckRule {
  return { kind: 'parentCheck', entity: spec.child, parent: spec.parent, via: spec.via, message: spec.message };
}

/** Checked once at the end of the transaction, on the final values of every touched row of the entity. */
export function commitConstraint<T>(spec: {
  entity: EntityClass<T>;
  check: (row: RuleRow<T>) => boolean;
  message: string;
}): ConstraintRule {
  return { kind: 'commitConstraint', ...spec, check: untyped<ConstraintRule['check']>(spec.check) };
}

/** Runs before derivations; may change `event.row`. */
export function early<T>(spec: { entity: EntityClass<T>; on?: Verb[]; run: (event: RowEvent<T>) => void | Promise<void> }): EventRule {
  return { kind: 'early', on: spec.on ?? ['INSERT', 'UPDATE', 'DELETE'], entity: spec.entity, run: untyped<EventRule['run']>(spec.run) };
}

/** Runs after the row is written; may write other rows through `event.insert`. */
export function after<T>(spec: { entity: EntityClass<T>; on?: Verb[]; run: (event: RowEvent<T>) => void | Promise<void> }): EventRule {
  return { kind: 'after', on: spec.on ?? ['INSERT', 'UPDATE', 'DELETE'], entity: spec.entity, run: untyped<EventRule['run']>(spec.run) };
}

/** Runs once per transaction, before commit. */
export function commit(spec: { run: (event: CommitEvent) => void | Promise<void> }): CommitRule {
  return { kind: 'commit', run: spec.run };
}
