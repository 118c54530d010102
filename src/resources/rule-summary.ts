import { keyOf } from '../data/primary-key.js';
import type { RuleLog } from '../logic/rule-log.js';
import type { VisibleEntry } from '../security/summary-visibility.js';
import type { ResourceSerializer } from './resource-serializer.js';

/**
 * `rulesummary`: for each row of the txsummary (the rows the caller may read) on which rules
 * ran, its href, resource and verb and the rules, in the order they first ran. A rule that
 * derives a column the caller cannot read of that row is left out.
 */
export function ruleSummary(
  entries: readonly VisibleEntry[],
  log: RuleLog,
  serializer: ResourceSerializer,
): Array<Record<string, unknown>> {
  return entries.flatMap((entry) => {
    const rules = log
      .of(entry.resource, keyOf(entry.resource, entry.row))
      .filter((rule) => rule.attribute === undefined || !entry.readable || entry.readable.has(rule.attribute));
    if (rules.length === 0) return [];
    const metadata = { href: serializer.href(entry.resource, entry.row), resource: entry.resource.name, verb: entry.verb };
    return [{ '@metadata': metadata, rules }];
  });
}
