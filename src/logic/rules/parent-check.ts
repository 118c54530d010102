import type { ParentRelation, Resource } from '../../data/resource-registry.js';
import type { CanonicalRow } from '../../data/value-codec.js';
import type { RuleCounter } from '../../observability/metrics.js';
import { ConstraintFailure } from '../constraint-failure.js';
import type { ParentCheck } from '../rule-bank.js';
import type { Rule } from '../rule-dsl.js';

/**
 * Parent checks of a row about to be written: on insert, and on an update that changes the
 * relation's columns, a key without nulls must name a parent row, read by `lockedParent` (with
 * the system's rights, under a lock, as a foreign key's check would). A missing one is
 * 422 / 4220 with the rule's message, rendered like a constraint's (`ConstraintFailure`).
 */
export async function checkParents(
  resource: Resource,
  checks: readonly ParentCheck[],
  row: CanonicalRow,
  before: CanonicalRow | null,
  lockedParent: (relation: ParentRelation, row: CanonicalRow) => Promise<CanonicalRow | undefined>,
  counterOf: (rule: Rule) => RuleCounter,
  /** Notes a check that passed (the rule summary and log), when the request asked for one. */
  passed?: (row: CanonicalRow, rule: Rule) => void,
): Promise<void> {
  for (const check of checks) {
    const pairs = check.relation.columns;
    if (pairs.some((pair) => (row[pair.child] ?? null) === null)) continue;
    if (before !== null && pairs.every((pair) => (row[pair.child] ?? null) === (before[pair.child] ?? null))) continue;
    const counter = counterOf(check.rule);
    counter.ran();
    if (await lockedParent(check.relation, row)) {
      passed?.(row, check.rule);
      continue;
    }
    counter.failed();
    throw new ConstraintFailure(resource, row, check.rule.message, before);
  }
}
