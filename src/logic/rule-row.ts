/**
 * Rows as rule code sees them, typed from the entity class. A column property is one whose
 * value is a string, number, boolean, bigint or Date (nullable or not); a property holding
 * one entity is a many-to-one relation; arrays (one-to-many) are neither. Column values on
 * the rule side are what the engine passes (see `toRuleRow`): `DecimalString` columns are
 * `Decimal`, `Date` columns the ISO string (`2030-01-02T10:00:00.000Z`, or `2030-01-02` for a
 * `date` column typed `string`), the rest as declared; a nullable column stays `| null`.
 */
import type { Decimal } from 'decimal.js';
import type { DecimalString } from '../data/decimal-string.js';

/** An entity class: `Customer`. */
export type EntityClass<T = unknown> = new (...args: never[]) => T;

type ColumnValue = string | number | boolean | bigint | Date;
type NotAParent = ColumnValue | readonly unknown[] | ((...args: never[]) => unknown);
type At<T, K> = T[K & keyof T];
type IsAny<T> = 0 extends 1 & T ? true : false;

/** The entity's column properties: `ColumnKey<Lineitem>` is `'lineitem_id' | 'qty_ordered' | ...`. */
export type ColumnKey<T> = { [K in keyof T]-?: NonNullable<T[K]> extends ColumnValue ? K : never }[keyof T] & string;

/** The entity's column properties that hold numbers: integers and `DecimalString`s. */
export type NumericKey<T> = { [K in keyof T]-?: NonNullable<T[K]> extends number | bigint | DecimalString ? K : never }[keyof T] & string;

/** The entity's many-to-one relation properties: `ParentKey<Lineitem>` is `'purchaseorder' | 'product'`. */
export type ParentKey<T> = {
  [K in keyof T]-?: NonNullable<T[K]> extends NotAParent ? never : NonNullable<T[K]> extends object ? K : never;
}[keyof T] &
  string;

/** The entity a relation property leads to. */
export type ParentOf<T, R> = NonNullable<At<T, R>>;

/** The relation properties of `T` that lead to `P`: `ParentKeyTo<Purchaseorder, Customer>` is `'customer'`. */
export type ParentKeyTo<T, P> = { [K in ParentKey<T>]: ParentOf<T, K> extends P ? K : never }[ParentKey<T>];

/** What a formula may read: an own attribute (`'qty_ordered'`) or a parent's (`'purchaseorder.paid'`). */
export type Use<T> = ColumnKey<T> | { [R in ParentKey<T>]: `${R}.${ColumnKey<ParentOf<T, R>>}` }[ParentKey<T>];

/** A column's value on the rule side (see the module comment). */
type RuleValue<V> = V extends DecimalString ? Decimal : V extends Date ? string : V;
type RuleSide<V> = RuleValue<Exclude<V, undefined>> | (undefined extends V ? null : never);

/** A value rule code may hand back for a column: decimals also as number or string, dates also as `Date`. */
type WritableValue<V> = V extends DecimalString ? Decimal | number | string : V extends Date ? string | Date : V;
type WritableSide<V> = WritableValue<Exclude<V, undefined>> | (undefined extends V ? null : never);

/**
 * A row of `T` as `where`, `check` and events see it: `RuleRow<Customer>` has `name: string`,
 * `balance: Decimal`, `credit_limit: Decimal`, and no `purchaseorders`. `RuleRow` without a type
 * (or of `any`) is an untyped row, for the engine's own code and rows of any resource.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the untyped row is `any`-valued by design (see above)
export type RuleRow<T = any> = IsAny<T> extends true ? Record<string, any> : { -readonly [K in ColumnKey<T>]: RuleSide<At<T, K>> };

/** Column values for a row of `T` that rule code inserts (`event.insert`): any subset. */
export type RuleValues<T> = { [K in ColumnKey<T>]?: WritableSide<At<T, K>> };

type OwnUse<U> = U extends `${string}.${string}` ? never : U;
type RelationOf<U> = U extends `${infer R}.${string}` ? R : never;
type AttrVia<U, R extends string> = U extends `${R}.${infer A}` ? A : never;

/**
 * What a formula's `compute` sees: only the attributes its `uses` list, so reading any other
 * is a compile error; a parent use (`'purchaseorder.paid'`) makes the relation property the
 * parent's row with those attributes, or null when the row has no parent.
 */
export type FormulaRow<T, U extends string> = {
  readonly [K in OwnUse<U> & ColumnKey<T>]: RuleSide<At<T, K>>;
} & {
  readonly [R in RelationOf<U> & ParentKey<T>]:
    | {
        readonly [A in AttrVia<U, R> & ColumnKey<ParentOf<T, R>>]: RuleSide<At<ParentOf<T, R>, A>>;
      }
    | null;
};

/** The row before the change as a formula's `compute` sees it: its own `uses` attributes only (no parents). */
export type FormulaOld<T, U extends string> = {
  readonly [K in OwnUse<U> & ColumnKey<T>]: RuleSide<At<T, K>>;
};
