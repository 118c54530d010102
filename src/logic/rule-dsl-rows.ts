/**
 * Rule kinds that write or follow whole rows: `allocate` (LAC's `allocateFromTo`, LogicBank's
 * `allocate`) and `commitRow` (a per-row commit event). Re-exported by `rule-dsl.ts`, which
 * projects import.
 */
import type { Decimal } from 'decimal.js';
import type { Verb } from '../data/row-change.js';
import type { RuleOrder, RuleReads } from './rule-actions.js';
import type { EntityClass, NumericKey, ParentKeyTo, RuleRow, RuleValues } from './rule-row.js';

export interface AllocateRule {
  kind: 'allocate';
  provider: EntityClass;
  on: Verb[];
  /** The provider attribute that says how much is left to allocate (a formula: amount − Σ allocations), read again after each allocation. */
  available: string;
  recipients: { entity: EntityClass; where: (provider: RuleRow) => Record<string, unknown>; order?: readonly string[] };
  allocation: EntityClass;
  /** The allocation's relation to the provider and to the recipient; absent: the only one there is. */
  providerVia?: string;
  recipientVia?: string;
  /** The allocation attribute that receives the amount, and how much a recipient gets of what is available. */
  amount: { attr: string; compute: (available: Decimal, recipient: RuleRow, provider: RuleRow) => Decimal.Value };
  /** Whether to go on to the next recipient, asked of the provider as it is now; absent: while `available` is above 0. */
  while?: (provider: RuleRow) => boolean;
}

/** What a commit-row event gets: the row as the transaction leaves it, and reads as the system. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- without a type argument, the untyped row (see RuleRow)
export interface CommitRowEvent<T = any> extends RuleReads {
  verb: Verb;
  /** Final values (generated keys included); on DELETE, the values the row had. */
  row: RuleRow<T>;
}

export interface CommitRowRule {
  kind: 'commitRow';
  entity: EntityClass;
  on: Verb[];
  run: (event: CommitRowEvent) => void | Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- a deliberate, named cast: F is the stored callback type
const untyped = <F>(callback: unknown): F => callback as F;

/**
 * When a provider row is inserted (or `on` says), allocates what it has `available` to the
 * recipients `where` selects (equalities on the recipient's attributes, from the provider's
 * values), in `order`: for each recipient, while `while` holds, an allocation row linked to the
 * provider and the recipient is inserted, with `amount.attr` = `amount.compute(available,
 * recipient, provider)` (a recipient that would get nothing is skipped), through the
 * allocation's rules (whose sums move the provider's `available` and the recipient's totals).
 * The recipients are read locked, after the ancestors their aggregates feed: concurrent
 * providers for the same recipients queue. For example, a payment to a customer's unpaid orders,
 * oldest first:
 *
 * ```ts
 * allocate({ provider: Payment, available: 'amount_unallocated',
 *            recipients: { entity: Purchaseorder, where: (p) => ({ customer_name: p.customer_name, paid: false }), order: ['order_number'] },
 *            allocation: PaymentAllocation,
 *            amount: { attr: 'amount', compute: (available, order) => Decimal.min(available, order.amount_owed) } })
 * ```
 */
export function allocate<P, R, A>(spec: {
  provider: EntityClass<P>;
  on?: Verb[];
  available: NumericKey<P>;
  recipients: { entity: EntityClass<R>; where: (provider: RuleRow<P>) => RuleValues<R>; order?: ReadonlyArray<RuleOrder<R>> };
  allocation: EntityClass<A>;
  providerVia?: ParentKeyTo<A, P>;
  recipientVia?: ParentKeyTo<A, R>;
  amount: { attr: NumericKey<A>; compute: (available: Decimal, recipient: RuleRow<R>, provider: RuleRow<P>) => Decimal.Value };
  while?: (provider: RuleRow<P>) => boolean;
}): AllocateRule {
  return {
    kind: 'allocate',
    ...spec,
    on: spec.on ?? ['INSERT'],
    recipients: { ...spec.recipients, where: untyped<AllocateRule['recipients']['where']>(spec.recipients.where) },
    amount: { attr: spec.amount.attr, compute: untyped<AllocateRule['amount']['compute']>(spec.amount.compute) },
    while: untyped<AllocateRule['while']>(spec.while),
  };
}

/**
 * Runs once for each row of the entity the transaction touched (`on`: which verbs), after every
 * row is processed and the commit constraints passed, before the per-transaction `commit`
 * events: it sees final values with generated keys, and may read rows (`read`, `query`) but not
 * write them. A throw rolls the transaction back.
 */
export function commitRow<T>(spec: {
  entity: EntityClass<T>;
  on?: Verb[];
  run: (event: CommitRowEvent<T>) => void | Promise<void>;
}): CommitRowRule {
  return {
    kind: 'commitRow',
    entity: spec.entity,
    on: spec.on ?? ['INSERT', 'UPDATE', 'DELETE'],
    run: untyped<CommitRowRule['run']>(spec.run),
  };
}
