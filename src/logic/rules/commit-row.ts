import type { Resource } from '../../data/resource-registry.js';
import type { RowChange } from '../../data/row-change.js';
import type { CommitRowRule } from '../rule-dsl-rows.js';
import { toRuleRow } from '../rule-values.js';
import { ruleReads } from './rule-actions.js';
import type { RuleContext } from './rule-context.js';

/**
 * Per-row commit events (see `commitRow`): for each row the transaction touched, in first-touch
 * order, with its final values (generated keys included), once every row is processed.
 */
export async function runCommitRows(
  tx: RuleContext,
  touched: readonly RowChange[],
  rulesOf: (resource: Resource) => readonly CommitRowRule[],
  /** Records a rule that ran on a row (the rule summary), when the request asked for one. */
  fired?: (resource: Resource, row: RowChange['row'], rule: CommitRowRule) => void,
): Promise<void> {
  const reads = ruleReads(tx);
  for (const entry of touched) {
    const rules = rulesOf(entry.resource).filter((rule) => rule.on.includes(entry.verb));
    if (rules.length === 0) continue;
    const event = { ...reads, verb: entry.verb, row: toRuleRow(entry.resource, entry.row) };
    for (const rule of rules) {
      tx.counterOf(rule).ran();
      fired?.(entry.resource, entry.row, rule);
      await rule.run(event);
    }
  }
}
