declare const decimalColumn: unique symbol;

/**
 * The property type of a decimal column on an entity: `balance!: DecimalString`. At run time it
 * is the string TypeORM returns (exact, unlike a number); the brand only tells the type system
 * that the column is a decimal, so rules see it as a `Decimal` (see `RuleRow` in
 * `src/logic/rule-row.ts`). Declare decimal columns with it, never as `number`.
 */
export type DecimalString = string & { readonly [decimalColumn]: true };
