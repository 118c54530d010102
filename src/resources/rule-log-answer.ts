import { keyOf, rowIdentity } from '../data/primary-key.js';
import { toJson } from '../data/value-codec.js';
import type { SummaryEntry } from '../documents/summary/summary-terms.js';
import type { RuleLog } from '../logic/rule-log.js';
import type { ResourceSerializer } from './resource-serializer.js';

/** Rules that are recorded only when they held: a failure ends the write (422 / 4220), so there is no log to answer. */
const CHECKS: ReadonlySet<string> = new Set(['constraint', 'commitConstraint', 'parentCheck']);

/** One firing as `rulelog` answers it, and as the debug log writes it. */
export interface ShownFiring {
  type: string;
  name: string;
  /** The attribute the rule derives, as the row's terms name it. */
  attribute?: string;
  /** The row, as its txsummary object names it; absent for a rule of the whole transaction (`commit`). */
  '@metadata'?: { href: string; resource: string; verb: string };
  /** The row's primary key, each part under its name in the row's terms. */
  key?: Record<string, unknown>;
  /** A derivation (formula, copy, sum, count, min, max): the attribute before the rule ran and after. */
  old?: unknown;
  new?: unknown;
  /** A constraint or parent check: `passed`; an event or allocation: `ran`. */
  outcome?: 'passed' | 'ran';
}

/**
 * `rulelog`: every rule that fired in the write, in the order it ran, on rows of the txsummary
 * (the rows the caller may read; see `SummaryVisibility`), each named as its txsummary object is
 * (see `SummaryTerms`). A firing on a row the caller may not read, or on a row the write left
 * unchanged (so not in the txsummary), is left out, as is one that derives a column the caller
 * may not read in that row or that the row's terms leave out: as in `rulesummary`, not even that
 * such a rule ran is told. Values are given as the txsummary gives them.
 */
export function ruleLogAnswer(entries: readonly SummaryEntry[], log: RuleLog, serializer: ResourceSerializer): ShownFiring[] {
  const byRow = new Map<string, SummaryEntry>();
  for (const entry of entries) byRow.set(rowIdentity(entry.resource, keyOf(entry.resource, entry.row)), entry);
  return log.all().flatMap((firing): ShownFiring[] => {
    const { rule, row, change } = firing;
    if (!row) return [{ type: rule.type, name: rule.name, outcome: 'ran' }];
    const entry = byRow.get(row.identity);
    if (!entry) return [];
    const named = nameIn(entry);
    const shown: ShownFiring = { type: rule.type, name: rule.name };
    if (rule.attribute !== undefined) {
      if (entry.readable && !entry.readable.has(rule.attribute)) return [];
      const attribute = named(rule.attribute);
      if (attribute === undefined) return [];
      shown.attribute = attribute;
    }
    shown['@metadata'] = { href: serializer.summaryHref(entry), resource: entry.terms.resource, verb: entry.verb };
    shown.key = Object.fromEntries(entry.resource.primaryKey.map((c) => [named(c.name) ?? c.name, toJson(c, entry.row[c.name] ?? null)]));
    if (change && rule.attribute !== undefined) {
      const column = entry.resource.columnsByName.get(rule.attribute)!;
      shown.old = toJson(column, change.old);
      shown.new = toJson(column, change.new);
    } else {
      shown.outcome = CHECKS.has(rule.type) ? 'passed' : 'ran';
    }
    return [shown];
  });
}

/** A column's name in the entry's terms: its alias at a custom resource level (undefined when the level leaves it out), else itself. */
function nameIn(entry: SummaryEntry): (column: string) => string | undefined {
  const attributes = entry.terms.attributes;
  if (!attributes) return (column) => column;
  return (column) => attributes.find((a) => a.column === column)?.name;
}
