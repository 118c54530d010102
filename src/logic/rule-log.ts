import { rowIdentity, type KeyValues } from '../data/primary-key.js';
import type { Resource } from '../data/resource-registry.js';
import type { CanonicalRow } from '../data/value-codec.js';
import type { Rule } from './rule-dsl.js';

/** One rule that ran on a row: its kind, the attribute it derives (if any), and its name in the project. */
export interface FiredRule {
  type: Rule['kind'];
  attribute?: string;
  name: string;
}

/**
 * Which rules ran on which rows of one write (`rulesummary=true`). Asked for by the request,
 * else absent: the engine then records nothing. Rules that run before a row has its key (an
 * insert's formulas, before the database generates it) are noted on the row object and settled
 * under the key once the row is written. Cleared at the start of each attempt of the transaction.
 */
export class RuleLog {
  private readonly byRow = new Map<string, FiredRule[]>();
  private pending = new Map<CanonicalRow, FiredRule[]>();

  constructor(private readonly describe: (rule: Rule) => FiredRule) {}

  clear(): void {
    this.byRow.clear();
    this.pending = new Map();
  }

  /** A rule ran on a row not yet written (or whose key is not known here). */
  note(row: CanonicalRow, rule: Rule): void {
    const list = this.pending.get(row);
    if (list) list.push(this.describe(rule));
    else this.pending.set(row, [this.describe(rule)]);
  }

  /** The rules noted on `from` now belong to `to` (an early event replaced the row object). */
  carry(from: CanonicalRow, to: CanonicalRow): void {
    if (from === to) return;
    const list = this.pending.get(from);
    if (!list) return;
    this.pending.delete(from);
    for (const fired of list) this.add(to, fired);
  }

  /** The rules noted on `row` belong to the row with this key. */
  settle(row: CanonicalRow, resource: Resource, key: KeyValues): void {
    const list = this.pending.get(row);
    if (!list) return;
    this.pending.delete(row);
    for (const fired of list) this.push(resource, key, fired);
  }

  record(resource: Resource, key: KeyValues, rule: Rule): void {
    this.push(resource, key, this.describe(rule));
  }

  /** The rules that ran on a row, each once, in the order they first ran. */
  of(resource: Resource, key: KeyValues): FiredRule[] {
    return this.byRow.get(rowIdentity(resource, key)) ?? [];
  }

  private add(row: CanonicalRow, fired: FiredRule): void {
    const list = this.pending.get(row);
    if (list) list.push(fired);
    else this.pending.set(row, [fired]);
  }

  private push(resource: Resource, key: KeyValues, fired: FiredRule): void {
    const id = rowIdentity(resource, key);
    const list = this.byRow.get(id);
    if (!list) this.byRow.set(id, [fired]);
    else if (!list.some((f) => f.name === fired.name)) list.push(fired);
  }
}
