import { Decimal } from 'decimal.js';
import type { Resource } from '../../data/resource-registry.js';
import type { CanonicalRow } from '../../data/value-codec.js';
import type { Verb } from '../../data/row-change.js';
import type { Allocation } from '../rule-bank.js';
import type { RuleRow } from '../rule-row.js';
import { toRuleRow } from '../rule-values.js';
import type { RuleContext } from './rule-context.js';

/**
 * Runs the provider row's allocations for the verb (see `allocate`): the recipients read locked
 * (their aggregates' ancestors first), then for each, while the provider's `while` holds, one
 * allocation row inserted through its rules, the provider read again after each.
 */
export async function runAllocations(
  tx: RuleContext,
  resource: Resource,
  allocations: readonly Allocation[],
  verb: Verb,
  row: CanonicalRow,
  depth: number,
): Promise<void> {
  for (const allocation of allocations) {
    const { rule } = allocation;
    if (!rule.on.includes(verb)) continue;
    tx.counterOf(rule).ran();
    tx.ruleFired?.(row, rule);
    const key = toRuleRow(resource, row);
    const read = async (lock: boolean): Promise<RuleRow | undefined> => {
      const current = await tx.readFor(rule.provider, key, lock);
      return current ? toRuleRow(resource, current) : undefined;
    };
    let provider = await read(true);
    if (!provider) continue;
    const found = await tx.queryFor(
      rule.recipients.entity,
      { where: rule.recipients.where(provider), order: rule.recipients.order, lock: true },
      depth,
    );
    const recipients = found.map((r) => toRuleRow(allocation.recipient, r));
    const goOn = rule.while ?? ((p: RuleRow) => new Decimal((p[rule.available] as Decimal.Value | null) ?? 0).gt(0));
    for (const recipient of recipients) {
      if (!goOn(provider)) break;
      const available = new Decimal((provider[rule.available] as Decimal.Value | null) ?? 0);
      const amount = new Decimal(rule.amount.compute(available, recipient, provider));
      if (!amount.gt(0)) continue;
      const values: RuleRow = { [rule.amount.attr]: amount };
      for (const pair of allocation.toProvider.columns) values[pair.child] = provider[pair.parent] as unknown;
      for (const pair of allocation.toRecipient.columns) values[pair.child] = recipient[pair.parent] as unknown;
      await tx.insertFor(rule.allocation, values, depth);
      provider = (await read(false)) ?? provider;
    }
  }
}
