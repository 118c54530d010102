/**
 * The rule DSL: declarative business logic for the project's tables, declared in
 * `src/project/rules.ts` and run by the logic engine inside every write transaction.
 *
 * Attribute names are the entity's column names (type-checked against the entity class);
 * `via` names a many-to-one relation property of the child entity. In `where`, `compute`
 * and `check`, a row's decimal attributes are `Decimal` objects (decimal.js, exact), integers
 * are numbers, booleans booleans, dates and date-times ISO strings, and NULL is `null`.
 *
 * ```ts
 * sum({ parent: Customer, attr: 'balance', children: Purchaseorder, via: 'customer',
 *       childAttr: 'amount_total', where: (order) => order.paid === false })
 * formula({ entity: Lineitem, attr: 'amount', uses: ['qty_ordered', 'product_price'],
 *           compute: (item) => D(item.product_price).times(item.qty_ordered) })
 * ```
 */
import { Decimal } from 'decimal.js';

import type { Verb } from '../data/row-change.js';

export type EntityClass<T = unknown> = new (...args: never[]) => T;
type Attr<T> = Extract<keyof T, string>;

/** A row as rules see it (see the module comment for value types). */
export type RuleRow = Record<string, any>;

export type { Verb };

/** Decimal of a value, with null and undefined read as 0: `D(item.product_price).times(item.qty_ordered)`. */
export function D(value: Decimal.Value | null | undefined): Decimal {
  return new Decimal(value ?? 0);
}

export interface AggregateRule {
  kind: 'sum' | 'count' | 'min' | 'max';
  parent: EntityClass;
  attr: string;
  children: EntityClass;
  via: string;
  /** The summed (min, max) child attribute; absent for count. */
  childAttr?: string;
  /** Only children for which this is true take part. */
  where?: (child: RuleRow) => boolean;
}

export interface FormulaRule {
  kind: 'formula';
  entity: EntityClass;
  attr: string;
  /** Attributes the formula reads: its own (`qty_ordered`) or a parent's (`purchaseorder.paid`). */
  uses: string[];
  compute: (row: RuleRow) => unknown;
}

export interface CopyRule {
  kind: 'copy';
  entity: EntityClass;
  attr: string;
  via: string;
  from: string;
}

export interface ConstraintRule {
  kind: 'constraint' | 'commitConstraint';
  entity: EntityClass;
  check: (row: RuleRow) => boolean;
  /** May name attributes in braces: "balance {balance} exceeds {credit_limit}". */
  message: string;
}

/** What an event handler gets. */
export interface RowEvent {
  verb: Verb;
  /** The row's values; an `early` handler may change them. */
  row: RuleRow;
  /** The values before this change (null on INSERT). */
  old: RuleRow | null;
  /** True when the attribute's value differs from `old` (always true on INSERT). */
  changed(attr: string): boolean;
  /** Inserts a row of another (or the same) entity through the engine, with all its rules. */
  insert<T>(entity: EntityClass<T>, values: Partial<Record<Attr<T>, unknown>>): Promise<RuleRow>;
}

export interface EventRule {
  kind: 'early' | 'after';
  entity: EntityClass;
  on: Verb[];
  run: (event: RowEvent) => void | Promise<void>;
}

export interface CommitEvent {
  /** Every row the transaction touched so far. */
  touched: Array<{ resource: string; verb: Verb; row: RuleRow }>;
}

export interface CommitRule {
  kind: 'commit';
  run: (event: CommitEvent) => void | Promise<void>;
}

export type Rule = AggregateRule | FormulaRule | CopyRule | ConstraintRule | EventRule | CommitRule;

interface AggregateSpec<P, C> {
  parent: EntityClass<P>;
  attr: Attr<P>;
  children: EntityClass<C>;
  via: Attr<C>;
  where?: (child: RuleRow) => boolean;
}

/** parent.attr = Σ child.childAttr over the children that pass `where`. */
export function sum<P, C>(spec: AggregateSpec<P, C> & { childAttr: Attr<C> }): AggregateRule {
  return { kind: 'sum', ...spec };
}

/** parent.attr = the number of children that pass `where`. */
export function count<P, C>(spec: AggregateSpec<P, C>): AggregateRule {
  return { kind: 'count', ...spec };
}

/** parent.attr = the smallest child.childAttr (null without children). */
export function min<P, C>(spec: AggregateSpec<P, C> & { childAttr: Attr<C> }): AggregateRule {
  return { kind: 'min', ...spec };
}

/** parent.attr = the largest child.childAttr (null without children). */
export function max<P, C>(spec: AggregateSpec<P, C> & { childAttr: Attr<C> }): AggregateRule {
  return { kind: 'max', ...spec };
}

/** row.attr = compute(row), re-derived whenever an attribute in `uses` changes. */
export function formula<T>(spec: { entity: EntityClass<T>; attr: Attr<T>; uses: string[]; compute: (row: RuleRow) => unknown }): FormulaRule {
  return { kind: 'formula', ...spec };
}

/** row.attr = parent.from, copied when the row is inserted or re-parented (not later). */
export function copy<T>(spec: { entity: EntityClass<T>; attr: Attr<T>; via: Attr<T>; from: string }): CopyRule {
  return { kind: 'copy', ...spec };
}

/** Checked after the row's derivations; failure rolls back the transaction (422 / 4220). */
export function constraint<T>(spec: { entity: EntityClass<T>; check: (row: RuleRow) => boolean; message: string }): ConstraintRule {
  return { kind: 'constraint', ...spec };
}

/** Checked once at the end of the transaction, on the final values of every touched row of the entity. */
export function commitConstraint<T>(spec: { entity: EntityClass<T>; check: (row: RuleRow) => boolean; message: string }): ConstraintRule {
  return { kind: 'commitConstraint', ...spec };
}

/** Runs before derivations; may change `event.row`. */
export function early<T>(spec: { entity: EntityClass<T>; on?: Verb[]; run: (event: RowEvent) => void | Promise<void> }): EventRule {
  return { kind: 'early', on: spec.on ?? ['INSERT', 'UPDATE', 'DELETE'], entity: spec.entity, run: spec.run };
}

/** Runs after the row is written; may write other rows through `event.insert`. */
export function after<T>(spec: { entity: EntityClass<T>; on?: Verb[]; run: (event: RowEvent) => void | Promise<void> }): EventRule {
  return { kind: 'after', on: spec.on ?? ['INSERT', 'UPDATE', 'DELETE'], entity: spec.entity, run: spec.run };
}

/** Runs once per transaction, before commit. */
export function commit(spec: { run: (event: CommitEvent) => void | Promise<void> }): CommitRule {
  return { kind: 'commit', run: spec.run };
}
