import type { Resource } from '../../data/resource-registry.js';
import type { CanonicalRow } from '../../data/value-codec.js';
import type { ResourceRules } from '../rule-bank.js';
import { fromRuleValue } from '../rule-values.js';
import type { RuleContext } from './rule-context.js';

/** Copies parent attributes into the row when it is inserted or re-parented (never later). */
export async function applyCopies(
  tx: RuleContext,
  _resource: Resource,
  rules: ResourceRules,
  row: CanonicalRow,
  before: CanonicalRow | null,
): Promise<void> {
  for (const copy of rules.copies) {
    const reparented = before === null || copy.relation.columns.some((pair) => (row[pair.child] ?? null) !== (before[pair.child] ?? null));
    if (!reparented) continue;
    const parent = await tx.parentOf(copy.relation, row);
    const was = row[copy.attr.name] ?? null;
    const value = parent ? fromRuleValue(copy.attr, parent[copy.from.name] ?? null) : null;
    row[copy.attr.name] = value;
    tx.ruleFired?.(row, copy.rule, { old: was, new: value });
  }
}
