import type { Resource } from '../../data/resource-registry.js';
import type { CanonicalRow } from '../../data/value-codec.js';
import type { ConstraintRule } from '../rule-dsl.js';
import { ConstraintFailure } from '../constraint-failure.js';
import { toRuleRow } from '../rule-values.js';

/**
 * Checks constraints on a row's current values. A failure is 422 / 4220 with the rule's
 * message (see `ConstraintFailure`: rendered for the caller, hidden values hidden); the row's
 * resource and key follow when the message does not already name its key.
 */
export function checkConstraints(resource: Resource, constraints: readonly ConstraintRule[], row: CanonicalRow): void {
  if (constraints.length === 0) return;
  const view = toRuleRow(resource, row);
  for (const rule of constraints) {
    if (rule.check(view)) continue;
    throw new ConstraintFailure(resource, row, rule.message);
  }
}
