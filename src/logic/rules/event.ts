import type { Resource } from '../../data/resource-registry.js';
import type { CanonicalRow } from '../../data/value-codec.js';
import type { EventRule, RowEvent, Verb } from '../rule-dsl.js';
import { ruleActions } from './rule-actions.js';
import { fromRuleRow, toRuleRow } from '../rule-values.js';
import { sameValue } from '../../data/value-codec.js';
import type { RuleContext } from './rule-context.js';

/**
 * Runs the row's early or after events for the verb. Early events may change the row:
 * their changes come back canonical. After events see the written row and may insert rows
 * through the engine.
 */
export async function runRowEvents(
  tx: RuleContext,
  resource: Resource,
  events: readonly EventRule[],
  verb: Verb,
  row: CanonicalRow,
  before: CanonicalRow | null,
  depth: number,
  mayChange: boolean,
): Promise<CanonicalRow> {
  const view = toRuleRow(resource, row);
  const old = before ? toRuleRow(resource, before) : null;
  const event: RowEvent = {
    verb,
    row: view,
    old,
    changed: (attr) => {
      const column = resource.columnsByName.get(attr);
      if (!column) throw new Error(`${resource.name} has no attribute "${attr}"`);
      return before === null || !sameValue(column.kind, row[attr], before[attr]);
    },
    ...ruleActions(tx, depth),
  };
  for (const rule of events) {
    if (!rule.on.includes(verb)) continue;
    tx.counterOf(rule).ran();
    tx.ruleFired?.(row, rule);
    await rule.run(event);
  }
  return mayChange ? withChanges(resource, row, view) : row;
}

/** The row with what an early event changed in its view; untouched columns (and absent ones) stay as they were. */
function withChanges(resource: Resource, row: CanonicalRow, view: Record<string, unknown>): CanonicalRow {
  const changed = fromRuleRow(resource, view);
  const result = { ...row };
  for (const column of resource.columns) {
    const value = changed[column.name] ?? null;
    const present = column.name in row;
    if (present ? !sameValue(column.kind, row[column.name], value) : value !== null) result[column.name] = value;
  }
  return result;
}
