import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import { keySegment } from '../../resources/primary-key.js';
import type { Resource } from '../../resources/resource-registry.js';
import type { CanonicalRow } from '../../resources/value-codec.js';
import type { ConstraintRule } from '../rule-dsl.js';
import { interpolate, toRuleRow } from '../rule-values.js';

/**
 * Checks constraints on a row's current values. A failure is 422 / 4220 with the rule's
 * message; the row's resource and key follow when the message does not already name its key.
 */
export function checkConstraints(resource: Resource, constraints: readonly ConstraintRule[], row: CanonicalRow): void {
  if (constraints.length === 0) return;
  const view = toRuleRow(resource, row);
  for (const rule of constraints) {
    if (rule.check(view)) continue;
    const message = interpolate(rule.message, resource, row);
    const namesKey = resource.primaryKey.every((c) => rule.message.includes(`{${c.name}}`));
    throw new ApiError(ErrorCode.RULE_CONSTRAINT, namesKey ? message : `${message} (${resource.name}/${keySegment(resource, row)})`);
  }
}
