import type { Resource } from '../../data/resource-registry.js';
import type { CanonicalRow } from '../../data/value-codec.js';
import type { RuleCounter } from '../../observability/metrics.js';
import type { ConstraintRule, Rule } from '../rule-dsl.js';
import { ConstraintFailure } from '../constraint-failure.js';
import { toRuleRow } from '../rule-values.js';

/**
 * Checks constraints on a row's current values. A failure is 422 / 4220 with the rule's
 * message (see `ConstraintFailure`: rendered for the caller, hidden values hidden); the row's
 * resource and key follow when the message does not already name its key. `before` is the row
 * before the change (as this transaction locked it; null on insert and for commit constraints),
 * which `check` gets as `old`.
 */
export function checkConstraints(
  resource: Resource,
  constraints: readonly ConstraintRule[],
  row: CanonicalRow,
  counterOf: (rule: Rule) => RuleCounter,
  before: CanonicalRow | null = null,
): void {
  if (constraints.length === 0) return;
  const view = toRuleRow(resource, row);
  const old = before ? toRuleRow(resource, before) : null;
  for (const rule of constraints) {
    const counter = counterOf(rule);
    counter.ran();
    if (rule.check(view, old)) continue;
    counter.failed();
    throw new ConstraintFailure(resource, row, rule.message, before);
  }
}
