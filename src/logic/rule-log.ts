import { rowIdentity, type KeyValues } from '../data/primary-key.js';
import type { Resource } from '../data/resource-registry.js';
import type { CanonicalRow, CanonicalValue } from '../data/value-codec.js';
import type { Rule } from './rule-dsl.js';

/** One rule that ran on a row: its kind, the attribute it derives (if any), and its name in the project. */
export interface FiredRule {
  type: Rule['kind'];
  attribute?: string;
  name: string;
}

/** A derivation's effect on its attribute: the value before the rule ran and the one it set. */
export interface DerivedChange {
  old: CanonicalValue;
  new: CanonicalValue;
}

/**
 * One firing, in the order the rules ran: the rule, the row it ran on (once the row's key is
 * known), and for a derivation (formula, copy, sum, count, min, max) what it did to the attribute.
 * Constraints and parent checks are recorded only when they passed (a failure ends the
 * transaction); events and allocations when they ran. `row` is undefined for a rule of the
 * whole transaction (`commit`).
 */
export interface Firing {
  rule: FiredRule;
  row?: { resource: Resource; key: KeyValues; identity: string };
  change?: DerivedChange;
}

/**
 * Which rules ran on which rows of one write, in the order they ran (`rulesummary=true`,
 * `rulelog=true`, and the debug log). Asked for by the request, else absent: the engine then
 * records nothing. Rules that run before a row has its key (an insert's formulas, before the
 * database generates it) are noted on the row object and settled under the key once the row is
 * written. Cleared at the start of each attempt of the transaction.
 */
export class RuleLog {
  private readonly firings: Firing[] = [];
  private pending = new Map<CanonicalRow, Firing[]>();
  /** `of`'s index, built at its first call (the transaction is over by then). */
  private byRow: Map<string, FiredRule[]> | undefined;

  constructor(private readonly describe: (rule: Rule) => FiredRule) {}

  clear(): void {
    this.firings.length = 0;
    this.pending = new Map();
    this.byRow = undefined;
  }

  /** A rule ran on a row not yet written (or whose key is not known here). */
  note(row: CanonicalRow, rule: Rule, change?: DerivedChange): void {
    const firing = this.firing(rule, change);
    const list = this.pending.get(row);
    if (list) list.push(firing);
    else this.pending.set(row, [firing]);
  }

  /** The rules noted on `from` now belong to `to` (an early event replaced the row object). */
  carry(from: CanonicalRow, to: CanonicalRow): void {
    if (from === to) return;
    const list = this.pending.get(from);
    if (!list) return;
    this.pending.delete(from);
    const onTo = this.pending.get(to);
    if (onTo) onTo.push(...list);
    else this.pending.set(to, list);
  }

  /** The rules noted on `row` belong to the row with this key. */
  settle(row: CanonicalRow, resource: Resource, key: KeyValues): void {
    const list = this.pending.get(row);
    if (!list) return;
    this.pending.delete(row);
    const at = { resource, key, identity: rowIdentity(resource, key) };
    for (const firing of list) firing.row = at;
  }

  /** A rule ran on the row with this key. */
  record(resource: Resource, key: KeyValues, rule: Rule, change?: DerivedChange): void {
    this.firing(rule, change).row = { resource, key, identity: rowIdentity(resource, key) };
  }

  /** A rule of the whole transaction ran (`commit`). */
  recordTransaction(rule: Rule): void {
    this.firing(rule);
  }

  /** Every firing whose row is known (or that concerns the whole transaction), in the order the rules ran. */
  all(): Firing[] {
    return this.firings.filter((f) => f.row !== undefined || f.rule.type === 'commit');
  }

  /** The rules that ran on a row, each once, in the order they first ran. */
  of(resource: Resource, key: KeyValues): FiredRule[] {
    if (!this.byRow) {
      this.byRow = new Map();
      for (const { row, rule } of this.firings) {
        if (!row) continue;
        const list = this.byRow.get(row.identity);
        if (!list) this.byRow.set(row.identity, [rule]);
        else if (!list.some((f) => f.name === rule.name)) list.push(rule);
      }
    }
    return this.byRow.get(rowIdentity(resource, key)) ?? [];
  }

  private firing(rule: Rule, change?: DerivedChange): Firing {
    const firing: Firing = change ? { rule: this.describe(rule), change } : { rule: this.describe(rule) };
    this.firings.push(firing);
    return firing;
  }
}
