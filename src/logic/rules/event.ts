import type { Resource } from '../../resources/resource-registry.js';
import type { CanonicalRow } from '../../resources/value-codec.js';
import type { EventRule, RowEvent, Verb } from '../rule-dsl.js';
import { fromRuleRow, toRuleRow } from '../rule-values.js';
import { sameValue, type WriteTransaction } from '../write-transaction.js';

/**
 * Runs the row's early or after events for the verb. Early events may change the row:
 * their changes come back canonical. After events see the written row and may insert rows
 * through the engine.
 */
export async function runRowEvents(
  tx: WriteTransaction,
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
    insert: (entity, values) => tx.insertFor(entity, values as Record<string, unknown>, depth),
  };
  for (const rule of events) {
    if (rule.on.includes(verb)) await rule.run(event);
  }
  return mayChange ? { ...row, ...fromRuleRow(resource, view) } : row;
}
