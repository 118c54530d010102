import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import type { RowChecksum } from '../resources/checksum.js';
import { keyOf, rowIdentity, type KeyValues } from '../resources/primary-key.js';
import type { ParentRelation, Resource, ResourceRegistry } from '../resources/resource-registry.js';
import type { RowStore } from '../resources/sql/row-store.js';
import type { ColumnKind } from '../resources/column-kind.js';
import { sameDecimal, type CanonicalRow, type CanonicalValue } from '../resources/value-codec.js';
import { adjustments, type ParentAdjustment } from './rules/aggregate.js';
import { applyCopies } from './rules/copy.js';
import { checkConstraints } from './rules/constraint.js';
import { runRowEvents } from './rules/event.js';
import { applyFormulas } from './rules/formula.js';
import type { RuleBank, ResourceRules } from './rule-bank.js';
import type { EntityClass, RuleRow, Verb } from './rule-dsl.js';
import { fromRuleRow } from './rule-values.js';
import { TransactionSummary } from './transaction-summary.js';

/** `override` skips the optimistic-lock check (spec §4.8). */
export const CHECKSUM_OVERRIDE = 'override';

/** Parents of parents of ...: a deeper chain means the rules loop. */
const MAX_DEPTH = 64;

/**
 * One request's changes, inside one database transaction. Every write to a project table
 * goes through here: the checksum check and row lock, the rules of each changed row (early
 * events, copies, formulas, the row's write, constraints, parent aggregates by delta and
 * their cascade, children that read changed parent attributes, after events), and the
 * transaction summary.
 */
export class WriteTransaction {
  readonly summary = new TransactionSummary();
  /** Rows being deleted in this transaction: aggregates into them are pointless. */
  private readonly deleting = new Set<string>();
  /**
   * Asked with the final values of a row the client inserts or updates, just before its
   * statement (so before the database's foreign keys can answer); may refuse it by throwing.
   * Rows written by rules are not asked: rules run with the system's rights.
   */
  clientRowCheck?: (resource: Resource, row: CanonicalRow, verb: 'INSERT' | 'UPDATE') => Promise<void>;
  /**
   * Run by the engine after the commit rules, just before the commit, with the values being
   * committed: the last reads a caller needs of this transaction (what its summary may show).
   */
  lastReads?: () => Promise<void>;

  constructor(
    readonly store: RowStore,
    readonly registry: ResourceRegistry,
    readonly bank: RuleBank,
    private readonly checksums: RowChecksum,
  ) {}

  async insert(resource: Resource, values: CanonicalRow, depth = 0): Promise<CanonicalRow> {
    this.guard(depth);
    const rules = this.bank.for(resource);
    const row = await this.early(resource, rules, 'INSERT', { ...values }, null);
    await applyCopies(this, resource, rules, row, null);
    await applyFormulas(this, resource, rules, row, null);
    if (depth === 0) await this.clientRowCheck?.(resource, row, 'INSERT');
    const stored = await this.store.insert(resource, row);
    this.summary.record(resource, 'INSERT', stored);
    checkConstraints(resource, rules.constraints, stored);
    await this.adjustParents(resource, rules, null, stored, depth);
    await this.after(resource, rules, 'INSERT', stored, null, depth);
    return this.current(resource, stored);
  }

  /** A client's update: locks the row, checks the checksum, applies the changed columns. */
  async update(resource: Resource, key: KeyValues, changes: CanonicalRow, checksum: string): Promise<CanonicalRow> {
    const before = await this.lockAndCheck(resource, key, checksum);
    const after = await this.change(resource, before, changes, 0);
    if (after === before) this.summary.record(resource, 'UPDATE', before);
    return after;
  }

  /** A client's delete: locks the row, checks the checksum, deletes it with its cascading children. */
  async delete(resource: Resource, key: KeyValues, checksum: string): Promise<CanonicalRow> {
    const row = await this.lockAndCheck(resource, key, checksum);
    await this.deleteRow(resource, row, 0);
    return row;
  }

  /** Inserts a row of an entity class on behalf of a rule (events). */
  async insertFor(entity: EntityClass, values: RuleRow, depth: number): Promise<CanonicalRow> {
    const resource = this.registry.resources.find((r) => r.target === entity);
    if (!resource) throw new Error(`${entity.name} is not an entity of this project`);
    return this.insert(resource, fromRuleRow(resource, values), depth + 1);
  }

  /** Reads a parent row through a relation (not locked: copies and formulas only read it). */
  async parentOf(relation: ParentRelation, row: CanonicalRow): Promise<CanonicalRow | undefined> {
    const parent = this.registry.get(relation.parent);
    const key = relation.columns.map((pair) => row[pair.child] ?? null);
    if (key.some((v) => v === null)) return undefined;
    return this.store.findByKey(parent, orderedKey(parent, relation, key), false);
  }

  /**
   * Applies changes to a locked row and runs its rules; `forced` are formulas to recompute
   * whatever changed (a parent attribute they read changed). Returns the new row, or the
   * same object when nothing changed.
   */
  async change(resource: Resource, before: CanonicalRow, changes: CanonicalRow, depth: number, forced: ReadonlySet<string> = new Set()): Promise<CanonicalRow> {
    this.guard(depth);
    const rules = this.bank.for(resource);
    const row = await this.early(resource, rules, 'UPDATE', { ...before, ...changes }, before);
    await applyCopies(this, resource, rules, row, before);
    await applyFormulas(this, resource, rules, row, before, forced);
    const changed: CanonicalRow = {};
    for (const column of resource.columns) {
      if (!sameValue(column.kind, row[column.name], before[column.name])) changed[column.name] = row[column.name] ?? null;
    }
    if (Object.keys(changed).length === 0) return before;
    if (depth === 0) await this.clientRowCheck?.(resource, row, 'UPDATE');
    const key = keyOf(resource, before);
    await this.store.update(resource, key, changed);
    this.summary.record(resource, 'UPDATE', row);
    checkConstraints(resource, rules.constraints, row);
    await this.adjustParents(resource, rules, before, row, depth);
    await this.recomputeChildren(resource, rules, row, new Set(Object.keys(changed)), depth);
    await this.after(resource, rules, 'UPDATE', row, before, depth);
    return this.current(resource, row);
  }

  private async deleteRow(resource: Resource, row: CanonicalRow, depth: number): Promise<void> {
    this.guard(depth);
    const rules = this.bank.for(resource);
    const id = rowIdentity(resource, keyOf(resource, row));
    this.deleting.add(id);
    await this.early(resource, rules, 'DELETE', { ...row }, row);
    for (const link of resource.children) {
      const child = this.registry.get(link.child);
      const relation = child.parents.find((p) => p.name === link.via)!;
      if (relation.onDelete !== 'CASCADE') continue;
      for (const childRow of await this.store.findChildren(child, relation, row, true)) {
        await this.deleteRow(child, childRow, depth + 1);
      }
    }
    await this.store.delete(resource, keyOf(resource, row));
    this.summary.record(resource, 'DELETE', row);
    await this.adjustParents(resource, rules, row, null, depth);
    await this.after(resource, rules, 'DELETE', row, row, depth);
  }

  /** Parent aggregates by delta: one locked read and one UPDATE per affected parent, then the parent's own rules. */
  private async adjustParents(resource: Resource, rules: ResourceRules, before: CanonicalRow | null, after: CanonicalRow | null, depth: number): Promise<void> {
    if (rules.feeds.length === 0) return;
    const pending: ParentAdjustment[] = adjustments(rules.feeds, before, after);
    for (const adjustment of pending) {
      const parentKey = orderedKey(adjustment.parent, adjustment.relation, adjustment.key);
      if (this.deleting.has(rowIdentity(adjustment.parent, parentKey))) continue;
      const parentRow = await this.store.findByKey(adjustment.parent, parentKey, true);
      if (!parentRow) continue; // a dangling key; the database's foreign key decides
      const changes = await adjustment.apply(parentRow, this);
      await this.change(adjustment.parent, parentRow, changes, depth + 1);
    }
  }

  /** Children whose formulas read an attribute of this row that changed. */
  private async recomputeChildren(resource: Resource, rules: ResourceRules, row: CanonicalRow, changed: Set<string>, depth: number): Promise<void> {
    for (const formula of rules.readByChildren) {
      const uses = formula.parentUses.filter((u) => u.parent === resource && changed.has(u.attr));
      if (uses.length === 0) continue;
      for (const use of uses) {
        for (const child of await this.store.findChildren(formula.resource, use.relation, row, true)) {
          await this.change(formula.resource, child, {}, depth + 1, new Set([formula.attr.name]));
        }
      }
    }
  }

  private async early(resource: Resource, rules: ResourceRules, verb: Verb, row: CanonicalRow, before: CanonicalRow | null): Promise<CanonicalRow> {
    if (!rules.early.some((e) => e.on.includes(verb))) return row;
    return runRowEvents(this, resource, rules.early, verb, row, before, 0, true);
  }

  private async after(resource: Resource, rules: ResourceRules, verb: Verb, row: CanonicalRow, before: CanonicalRow | null, depth: number): Promise<void> {
    if (!rules.after.some((e) => e.on.includes(verb))) return;
    await runRowEvents(this, resource, rules.after, verb, row, verb === 'INSERT' ? null : before, depth, false);
  }

  /** The row's latest values as the summary holds them (rules may have changed it again). */
  private current(resource: Resource, row: CanonicalRow): CanonicalRow {
    return this.summary.latest(resource, keyOf(resource, row)) ?? row;
  }

  private async lockAndCheck(resource: Resource, key: KeyValues, checksum: string): Promise<CanonicalRow> {
    const row = await this.store.findByKey(resource, key, true);
    if (!row) throw new ApiError(ErrorCode.OBJECT_NOT_FOUND, `No ${resource.name} with that key.`);
    if (checksum !== CHECKSUM_OVERRIDE && checksum !== this.checksums.of(resource, row)) {
      throw new ApiError(ErrorCode.CHECKSUM_MISMATCH, `The ${resource.name} was changed by someone else; read it again and retry with its current checksum.`);
    }
    return row;
  }

  private guard(depth: number): void {
    if (depth > MAX_DEPTH) throw new Error(`rules cascaded more than ${MAX_DEPTH} levels deep; check the rules for a loop`);
  }
}

/** A relation's parent-side values put into the parent's key-column order. */
function orderedKey(parent: Resource, relation: ParentRelation, values: CanonicalValue[]): KeyValues {
  return parent.primaryKey.map((column) => {
    const at = relation.columns.findIndex((pair) => pair.parent === column.name);
    return at >= 0 ? values[at] ?? null : null;
  });
}

export function sameValue(kind: ColumnKind, a: CanonicalValue | undefined, b: CanonicalValue | undefined): boolean {
  const x = a ?? null;
  const y = b ?? null;
  if (x === null || y === null || x === y) return x === y;
  return kind === 'decimal' && sameDecimal(x as string, y as string);
}
