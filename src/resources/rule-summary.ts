import { keyOf } from '../data/primary-key.js';
import type { SummaryEntry } from '../documents/summary/summary-terms.js';
import type { FiredRule, RuleLog } from '../logic/rule-log.js';
import type { ResourceSerializer } from './resource-serializer.js';

/**
 * `rulesummary`: for each row of the txsummary (the rows the caller may read) on which rules
 * ran, its href, resource and verb, in the txsummary's terms (see `SummaryTerms`), and the rules,
 * in the order they first ran. A rule's attribute is named as the txsummary names it (a custom
 * resource level's alias); a rule that derives a column the caller cannot read of that row, or
 * one the row's terms do not show (a column the level leaves out), is left out.
 */
export function ruleSummary(
  entries: readonly SummaryEntry[],
  log: RuleLog,
  serializer: ResourceSerializer,
): Array<Record<string, unknown>> {
  return entries.flatMap((entry) => {
    const named = aliasOf(entry);
    const rules = log.of(entry.resource, keyOf(entry.resource, entry.row)).flatMap((rule): FiredRule[] => {
      if (rule.attribute === undefined) return [rule];
      if (entry.readable && !entry.readable.has(rule.attribute)) return [];
      const name = named(rule.attribute);
      if (name === undefined) return [];
      return [name === rule.attribute ? rule : { ...rule, attribute: name }];
    });
    if (rules.length === 0) return [];
    const metadata = { href: serializer.summaryHref(entry), resource: entry.terms.resource, verb: entry.verb };
    return [{ '@metadata': metadata, rules }];
  });
}

/** A column's name in the entry's terms: its alias at a custom resource level (undefined when the level leaves it out), else itself. */
function aliasOf(entry: SummaryEntry): (column: string) => string | undefined {
  const attributes = entry.terms.attributes;
  if (!attributes) return (column) => column;
  return (column) => attributes.find((a) => a.column === column)?.name;
}
