import { ApiError } from '../common/api-error.js';
import { apiErrorFromDatabase } from '../database/errors/database-errors.js';
import { ErrorCode } from '../common/error-codes.js';
import type { RowChecksum } from '../data/checksum.js';
import { keyOf, rowIdentity, type KeyValues } from '../data/primary-key.js';
import type { ParentRelation, Resource, ResourceRegistry } from '../data/resource-registry.js';
import { paramsFor, type RowLock, type RowStore } from '../data/row-store.js';
import { sameValue, type CanonicalRow, type CanonicalValue } from '../data/value-codec.js';
import type { Unsettled } from '../data/values-column-resolver.js';
import { ancestorPaths, lockAncestors, type AncestorPath, type RowSource } from './ancestor-locks.js';
import { adjustments, type ParentAdjustment } from './rules/aggregate.js';
import { applyCopies } from './rules/copy.js';
import { checkConstraints } from './rules/constraint.js';
import { checkParents } from './rules/parent-check.js';
import { runRowEvents } from './rules/event.js';
import { runAllocations } from './rules/allocate.js';
import { applyFormulas } from './rules/formula.js';
import type { RuleContext } from './rules/rule-context.js';
import type { UntypedRuleQuery } from './rule-actions.js';
import { orderColumns, ordered, queryCondition, ruleKey } from './rules/rule-query.js';
import type { RuleBank, ResourceRules } from './rule-bank.js';
import type { EntityClass, Rule, RuleRow, Verb } from './rule-dsl.js';
import type { RuleCounter } from '../observability/metrics.js';
import type { RowPolicy } from './row-policy.js';
import { fromRuleRow } from './rule-values.js';
import type { DerivedChange, RuleLog } from './rule-log.js';
import { TransactionSummary } from './transaction-summary.js';

/** How a client's update treats what it sent besides the columns it changes. */
export interface UpdateOptions {
  /** Values of columns the client may not write: accepted when equal to the stored ones. */
  fixed?: CanonicalRow;
  /** The error for fixed columns whose values differ (default 400 / 4003 naming them). */
  refuse?: (columns: string[]) => Error;
  /** The client may not update the row: every value sent must equal the stored one (checksum still checked). */
  readOnly?: boolean;
  /** An update that changes nothing is still listed in the summary (default true). */
  recordUnchanged?: boolean;
}

/** `override` skips the optimistic-lock check (spec §4.8). */
export const CHECKSUM_OVERRIDE = 'override';

/** The most rows of one body whose ancestors are locked up front, in one statement per ancestor table. */
const MAX_ROWS_LOCKED_AT_ONCE = 2000;

/** Parents of parents of ..., writes of events' writes of ...: a deeper chain means the rules loop (500 / 5001). */
const MAX_DEPTH = 64;

/**
 * One request's changes, inside one database transaction. Every write to a project table
 * goes through here: the checksum check and row lock, the rules of each changed row (early
 * events, copies, formulas, the row's write, constraints, parent aggregates by delta and
 * their cascade, children that read changed parent attributes, after events), and the
 * transaction summary.
 */
export class WriteTransaction implements RuleContext {
  readonly summary = new TransactionSummary();
  /** Rows being deleted in this transaction: aggregates into them are pointless. */
  private readonly deleting = new Set<string>();
  /** Rows this transaction holds an update lock on, with their current values: read once, then kept up to date here. */
  private readonly locked = new Map<string, CanonicalRow>();
  /** Resources whose client writes had their ancestors locked for the whole request up front (a body of several rows). */
  private readonly ancestorsLockedFor = new Set<Resource>();

  constructor(
    readonly store: RowStore,
    readonly registry: ResourceRegistry,
    readonly bank: RuleBank,
    private readonly checksums: RowChecksum,
    /** The caller's rights, asked about every row the client names (rules run with the system's). */
    private readonly policy: RowPolicy<unknown>,
    /** Where the rules that run are recorded, when the request asked for a rule summary. */
    private readonly ruleLog?: RuleLog,
  ) {
    if (ruleLog) this.ruleFired = (row, rule, change) => ruleLog.note(row, rule, change);
  }

  readonly ruleFired?: (row: CanonicalRow, rule: Rule, change?: DerivedChange) => void;

  readonly counterOf = (rule: Rule): RuleCounter => this.bank.counterOf(rule);

  async insert(resource: Resource, values: CanonicalRow, depth = 0): Promise<CanonicalRow> {
    this.guard(depth);
    const rules = this.bank.for(resource);
    const row = await this.early(resource, rules, 'INSERT', { ...values }, null, depth);
    await applyCopies(this, resource, rules, row, null);
    await applyFormulas(this, resource, rules, row, null);
    if (depth === 0) await this.policy.mayWrite(this.store, resource, row, 'INSERT');
    await this.insertManagedParents(resource, rules, row, null, depth);
    // PostgreSQL: the insert's foreign-key check (KEY SHARE) does not conflict with the parents'
    // update locks (FOR NO KEY UPDATE), so the insert goes first and the locks are held for one
    // statement less. MySQL/MariaDB: the check's share lock would conflict; the locks go first.
    // Parent checks read their parents under a lock before the insert: the ancestors go first
    // there too, so that locks keep their order (deepest first).
    const own = !(depth === 0 && this.ancestorsLockedFor.has(resource));
    const lockFirst = this.store.dialect !== 'postgres' || rules.parentChecks.length > 0;
    if (own && lockFirst) await this.lockAncestorsOf(resource, () => [{ values: row }]);
    await checkParents(resource, rules.parentChecks, row, null, this.lockedParent, this.counterOf, this.ruleFired);
    const stored = await this.store.insert(resource, row);
    if (own && !lockFirst) await this.lockAncestorsOf(resource, () => [{ values: stored }]);
    this.summary.record(resource, 'INSERT', stored);
    this.ruleLog?.settle(row, resource, keyOf(resource, stored));
    checkConstraints(resource, rules.constraints, stored, this.counterOf);
    this.recordAll(resource, stored, rules.constraints);
    await this.adjustParents(resource, rules, null, stored, depth);
    await this.after(resource, rules, 'INSERT', stored, null, depth);
    if (depth === 0) await this.policy.mayKeep(this.store, resource, keyOf(resource, stored), 'INSERT');
    return this.current(resource, stored);
  }

  /**
   * For a body of several rows: locks the ancestors of every row the client inserts, or updates
   * (`key` given), at once, each resource's rows in key order, so that two requests naming the
   * same orders in different orders queue rather than deadlock. Their writes then skip their own.
   */
  async lockAncestorsOfMany(resource: Resource, items: ReadonlyArray<{ key?: KeyValues; values: CanonicalRow }>): Promise<void> {
    // One statement binds a value per row and level: past this, PostgreSQL's 65,535 parameters
    // come into reach. Such bodies lock row by row, as single rows do (a deadlock is retried).
    if (items.length > MAX_ROWS_LOCKED_AT_ONCE) return;
    await this.lockAncestorsOf(resource, (path) =>
      items.flatMap((item) => (item.key ? updateSources(path, item.key, item.values) : [{ values: item.values }])),
    );
    this.ancestorsLockedFor.add(resource);
  }

  /**
   * A client's update: locks the row, checks the checksum, applies the changed columns.
   * `options.fixed` are values the client sent for columns it may not write (a round trip of
   * what it read): each must equal the stored value, compared on the row the checksum check
   * read; `refuse` answers the ones that differ.
   */
  async update(
    resource: Resource,
    key: KeyValues,
    changes: CanonicalRow,
    checksum: string,
    options: UpdateOptions = {},
  ): Promise<CanonicalRow> {
    if (options.readOnly) {
      // Nothing may change: the caller need only see the row (404 otherwise), and no lock is taken.
      await this.policy.maySee(this.store, resource, key);
      const row = await this.lockAndCheck(resource, key, checksum, false);
      this.refuseChanged(resource, row, { ...options.fixed, ...changes }, options.refuse);
      return row;
    }
    await this.policy.mayChange(this.store, resource, key, 'UPDATE');
    if (!this.ancestorsLockedFor.has(resource)) await this.lockAncestorsOf(resource, (path) => updateSources(path, key, changes));
    const before = await this.lockAndCheck(resource, key, checksum, 'update');
    this.refuseChanged(resource, before, options.fixed, options.refuse);
    const after = await this.change(resource, before, changes, 0);
    if (after === before && options.recordUnchanged !== false) this.summary.record(resource, 'UPDATE', before);
    await this.policy.mayKeep(this.store, resource, key, 'UPDATE');
    return after;
  }

  private refuseChanged(
    resource: Resource,
    stored: CanonicalRow,
    sent: CanonicalRow | undefined,
    refuse: ((columns: string[]) => Error) | undefined,
  ): void {
    if (!sent) return;
    const changed = Object.keys(sent).filter((name) => !sameValue(resource.columnsByName.get(name)!.kind, sent[name], stored[name]));
    if (changed.length === 0) return;
    throw refuse
      ? refuse(changed)
      : new ApiError(ErrorCode.UNKNOWN_COLUMN, `Not a writable column of ${resource.name}: ${changed.map((n) => `"${n}"`).join(', ')}.`);
  }

  /**
   * Before any rule of the request runs: may the caller update (or delete, or only read, for a
   * round trip) the row with this key, is its checksum current, and are the values it sends for
   * columns it may not write (`fixed`) the stored ones? The same questions, in the same order,
   * as `update` and `delete` ask, on the row as stored, without a lock (the write asks again
   * under its lock). Returns the stored row.
   */
  async admit(
    resource: Resource,
    key: KeyValues,
    checksum: string,
    verb: 'UPDATE' | 'DELETE' | 'READ',
    options: Pick<UpdateOptions, 'fixed' | 'refuse'> = {},
  ): Promise<CanonicalRow> {
    if (verb === 'READ') await this.policy.maySee(this.store, resource, key);
    else await this.policy.mayChange(this.store, resource, key, verb);
    const row = await this.store.findByKey(resource, key, false);
    if (!row) throw notFound(resource);
    this.checkChecksum(resource, row, checksum);
    this.refuseChanged(resource, row, options.fixed, options.refuse);
    return row;
  }

  /**
   * Before any rule of the request runs: may the caller's row be written with these values (see
   * `RowPolicy.mayWrite`)? What the rules derive, and what `unsettled` names (a parent object's
   * key the database has not generated yet, a parent row an earlier object changes), are not
   * known yet: a filter reading them is left to the write. A row an early event may still
   * change is left to the write altogether.
   */
  async admitValues(resource: Resource, row: CanonicalRow, verb: 'INSERT' | 'UPDATE', unsettled: Unsettled): Promise<void> {
    if (this.bank.for(resource).early.some((e) => e.on.includes(verb))) return;
    const derivedOrUnsettled: Unsettled = (r, column, viaParent) => this.bank.for(r).derived.has(column) || unsettled(r, column, viaParent);
    await this.policy.mayWrite(this.store, resource, row, verb, derivedOrUnsettled);
  }

  /** A client's delete: locks the row, checks the checksum, deletes it with its cascading children. */
  async delete(resource: Resource, key: KeyValues, checksum: string): Promise<CanonicalRow> {
    await this.policy.mayChange(this.store, resource, key, 'DELETE');
    await this.lockAncestorsOf(resource, () => [{ key }]);
    const row = await this.lockAndCheck(resource, key, checksum, 'delete');
    await this.deleteRow(resource, row, 0);
    return row;
  }

  /** The project resource of an entity class (rule code names entities by class). */
  resourceFor(entity: EntityClass): Resource {
    const resource = this.registry.resources.find((r) => r.target === entity);
    if (!resource) throw new Error(`${entity.name} is not an entity of this project`);
    return resource;
  }

  /** Inserts a row of an entity class on behalf of a rule (events). */
  async insertFor(entity: EntityClass, values: RuleRow, depth: number): Promise<CanonicalRow> {
    const resource = this.resourceFor(entity);
    return this.insert(resource, fromRuleRow(resource, values), depth + 1);
  }

  /**
   * Updates a row on behalf of a rule, with the system's rights: ancestors locked first, then the
   * row, then its rules as for a client's update. Attributes rules derive may not be written.
   */
  async updateFor(entity: EntityClass, key: RuleRow, changes: RuleRow, depth: number): Promise<CanonicalRow> {
    const resource = this.resourceFor(entity);
    const rowKey = ruleKey(resource, key);
    const values = fromRuleRow(resource, changes);
    const derived = Object.keys(values).filter((name) => this.bank.for(resource).derived.has(name));
    if (derived.length > 0)
      throw new Error(`rule code may not write ${derived.map((n) => `${resource.name}.${n}`).join(', ')}: rules derive it`);
    await this.lockAncestorsOf(resource, (path) => updateSources(path, rowKey, values));
    const before = await this.lockRow(resource, rowKey, 'update');
    if (!before) throw new Error(`rule code updates a ${resource.name} that does not exist`);
    return this.change(resource, before, values, depth + 1);
  }

  /** Deletes a row (and its cascading children) on behalf of a rule, through their rules. */
  async deleteFor(entity: EntityClass, key: RuleRow, depth: number): Promise<void> {
    const resource = this.resourceFor(entity);
    const rowKey = ruleKey(resource, key);
    if (this.deleting.has(rowIdentity(resource, rowKey))) return;
    await this.lockAncestorsOf(resource, () => [{ key: rowKey }]);
    const row = await this.lockRow(resource, rowKey, 'delete');
    if (!row) throw new Error(`rule code deletes a ${resource.name} that does not exist`);
    await this.deleteRow(resource, row, depth + 1);
  }

  /** A row for rule code, as this transaction sees it; `lock`: for update. */
  async readFor(entity: EntityClass, key: RuleRow, lock: boolean): Promise<CanonicalRow | undefined> {
    const resource = this.resourceFor(entity);
    const rowKey = ruleKey(resource, key);
    return lock ? this.lockRow(resource, rowKey, 'update') : this.store.findByKey(resource, rowKey, false);
  }

  /**
   * Rows for rule code. With `lock`, the ancestors the rows' aggregates feed are locked first
   * (deepest first, as for every write), then the rows, in key order: rule code that reads rows
   * to write to them takes its locks in the engine's order.
   */
  async queryFor(entity: EntityClass, query: UntypedRuleQuery, depth: number): Promise<CanonicalRow[]> {
    this.guard(depth);
    const resource = this.resourceFor(entity);
    orderColumns(resource, query.order);
    const select = (lock: RowLock): Promise<CanonicalRow[]> => {
      const params = paramsFor(this.store.dialect);
      return this.store.lockWhere(resource, queryCondition(this.store, resource, query.where, params), params, lock);
    };
    if (!query.lock) return ordered(resource, await select(false), query);
    if (this.store.dialect !== 'sqlite' && ancestorPaths(resource, this.bank, this.registry).length > 0) {
      const found = await select(false);
      await this.lockAncestorsOf(resource, () => found.map((values) => ({ values })));
    }
    const rows = await select('update');
    for (const row of rows) this.locked.set(rowIdentity(resource, keyOf(resource, row)), row);
    return ordered(resource, rows, query);
  }

  /**
   * The rows written to tables whose stored values may differ from those written (a trigger,
   * `ON UPDATE`, a generated column, normalised JSON: see `Resource.readBackAfterWrite`), read back
   * as stored, one statement per table, so that the summary answers the stored rows and their
   * checksums are the ones the next write must send.
   */
  async readBackStored(): Promise<void> {
    const byTable = new Map<Resource, Map<string, { verb: Verb; key: KeyValues }>>();
    for (const entry of this.summary.list()) {
      if (entry.verb === 'DELETE' || !entry.resource.readBackAfterWrite) continue;
      const entries = byTable.get(entry.resource) ?? new Map<string, { verb: Verb; key: KeyValues }>();
      byTable.set(entry.resource, entries);
      const key = keyOf(entry.resource, entry.row);
      entries.set(rowIdentity(entry.resource, key), { verb: entry.verb, key });
    }
    for (const [resource, entries] of byTable) {
      const stored = await this.store.findByKeys(
        resource,
        [...entries.values()].map((e) => e.key),
      );
      for (const row of stored) {
        const entry = entries.get(rowIdentity(resource, keyOf(resource, row)));
        if (entry) this.summary.record(resource, entry.verb, row);
      }
    }
  }

  /** Reads a parent row through a relation (not locked: copies and formulas only read it). */
  async parentOf(relation: ParentRelation, row: CanonicalRow): Promise<CanonicalRow | undefined> {
    const parent = this.registry.get(relation.parent);
    const key = relation.columns.map((pair) => row[pair.child] ?? null);
    if (key.some((v) => v === null)) return undefined;
    return this.store.findByKey(parent, orderedKey(parent, relation, key), false);
  }

  /** A parent check's parent: one this transaction holds already, or read under an update lock, as a foreign key's check would hold it. */
  private readonly lockedParent = async (relation: ParentRelation, row: CanonicalRow): Promise<CanonicalRow | undefined> => {
    const parent = this.registry.get(relation.parent);
    const key = orderedKey(
      parent,
      relation,
      relation.columns.map((pair) => row[pair.child] ?? null),
    );
    return this.locked.get(rowIdentity(parent, key)) ?? (await this.lockRow(parent, key, 'update'));
  };

  /**
   * Applies changes to a locked row and runs its rules; `forced` are formulas to recompute
   * whatever changed (a parent attribute they read changed). Returns the new row, or the
   * same object when nothing changed.
   */
  async change(
    resource: Resource,
    before: CanonicalRow,
    changes: CanonicalRow,
    depth: number,
    forced: ReadonlySet<string> = new Set(),
  ): Promise<CanonicalRow> {
    this.guard(depth);
    const rules = this.bank.for(resource);
    const row = await this.early(resource, rules, 'UPDATE', { ...before, ...changes }, before, depth);
    await applyCopies(this, resource, rules, row, before);
    await applyFormulas(this, resource, rules, row, before, forced);
    const changed: CanonicalRow = {};
    for (const column of resource.columns) {
      if (!sameValue(column.kind, row[column.name], before[column.name])) changed[column.name] = row[column.name] ?? null;
    }
    this.ruleLog?.settle(row, resource, keyOf(resource, before));
    if (Object.keys(changed).length === 0) return before;
    if (depth === 0) await this.policy.mayWrite(this.store, resource, row, 'UPDATE');
    await this.insertManagedParents(resource, rules, row, before, depth);
    const key = keyOf(resource, before);
    await checkParents(
      resource,
      rules.parentChecks,
      row,
      before,
      this.lockedParent,
      this.counterOf,
      this.ruleLog && ((_row, rule) => this.ruleLog!.record(resource, key, rule)),
    );
    await this.store.update(resource, key, changed);
    this.locked.set(rowIdentity(resource, key), row);
    this.summary.record(resource, 'UPDATE', row);
    checkConstraints(resource, rules.constraints, row, this.counterOf, before);
    this.recordAll(resource, row, rules.constraints);
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
    const early = await this.early(resource, rules, 'DELETE', { ...row }, row, depth);
    this.ruleLog?.settle(early, resource, keyOf(resource, row));
    for (const link of resource.children) {
      const child = this.registry.get(link.child);
      const relation = child.parents.find((p) => p.name === link.via)!;
      if (relation.onDelete !== 'CASCADE') continue;
      for (const childRow of await this.store.findChildren(child, relation, row, 'delete')) {
        await this.deleteRow(child, childRow, depth + 1);
      }
    }
    await this.store.delete(resource, keyOf(resource, row));
    this.locked.delete(id);
    this.summary.record(resource, 'DELETE', row);
    await this.adjustParents(resource, rules, row, null, depth);
    await this.after(resource, rules, 'DELETE', row, row, depth);
  }

  /** Parent aggregates by delta: one locked read and one UPDATE per affected parent, then the parent's own rules. */
  private async adjustParents(
    resource: Resource,
    rules: ResourceRules,
    before: CanonicalRow | null,
    after: CanonicalRow | null,
    depth: number,
  ): Promise<void> {
    if (rules.feeds.length === 0) return;
    const pending: ParentAdjustment[] = adjustments(rules.feeds, before, after);
    for (const adjustment of pending) {
      const parentKey = orderedKey(adjustment.parent, adjustment.relation, adjustment.key);
      const id = rowIdentity(adjustment.parent, parentKey);
      if (this.deleting.has(id)) continue;
      const parentRow = this.locked.get(id) ?? (await this.lockRow(adjustment.parent, parentKey, 'update'));
      if (!parentRow) continue; // a dangling key; the database's foreign key decides
      const changes = await adjustment.apply(parentRow, this);
      if (this.ruleLog) {
        for (const aggregate of adjustment.aggregates) {
          const name = aggregate.attr.name;
          const change = { old: parentRow[name] ?? null, new: changes[name] ?? null };
          this.ruleLog.record(adjustment.parent, parentKey, aggregate.rule, change);
        }
      }
      await this.change(adjustment.parent, parentRow, changes, depth + 1);
    }
  }

  /**
   * Managed parents (`insertParent`): each parent the row now points to through such an
   * aggregate's relation, locked if it exists, else inserted (key from the row, defaults for the
   * rest, with its own rules), before the row is written so that a foreign key finds it. Two
   * transactions inserting the same parent: the second's duplicate key makes it run again.
   */
  private async insertManagedParents(
    resource: Resource,
    rules: ResourceRules,
    row: CanonicalRow,
    before: CanonicalRow | null,
    depth: number,
  ): Promise<void> {
    const relations = new Map(rules.feeds.filter((feed) => feed.rule.insertParent).map((feed) => [feed.relation.name, feed]));
    for (const { relation, parent } of relations.values()) {
      const values = relation.columns.map((pair) => row[pair.child] ?? null);
      if (values.some((v) => v === null)) continue;
      if (before && relation.columns.every((pair, i) => (before[pair.child] ?? null) === values[i])) continue;
      const parentKey = orderedKey(parent, relation, values);
      const id = rowIdentity(parent, parentKey);
      if (this.locked.has(id) || (await this.lockRow(parent, parentKey, 'update'))) continue;
      const parentRow = Object.fromEntries(relation.columns.map((pair, i) => [pair.parent, values[i] ?? null]));
      try {
        await this.insert(parent, parentRow, depth + 1);
      } catch (error) {
        if (apiErrorFromDatabase(error)?.errorCode !== ErrorCode.DUPLICATE_KEY) throw error;
        // Another transaction inserted it since: a conflict like a serialization failure, and retried as one.
        throw Object.assign(new Error(`a managed ${parent.name} was inserted concurrently`), { code: '40001' });
      }
    }
  }

  /** Children whose formulas read an attribute of this row that changed. */
  private async recomputeChildren(
    resource: Resource,
    rules: ResourceRules,
    row: CanonicalRow,
    changed: Set<string>,
    depth: number,
  ): Promise<void> {
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

  private async early(
    resource: Resource,
    rules: ResourceRules,
    verb: Verb,
    row: CanonicalRow,
    before: CanonicalRow | null,
    depth: number,
  ): Promise<CanonicalRow> {
    if (!rules.early.some((e) => e.on.includes(verb))) return row;
    const changed = await runRowEvents(this, resource, rules.early, verb, row, before, depth, true);
    this.ruleLog?.carry(row, changed);
    return changed;
  }

  private async after(
    resource: Resource,
    rules: ResourceRules,
    verb: Verb,
    row: CanonicalRow,
    before: CanonicalRow | null,
    depth: number,
  ): Promise<void> {
    if (rules.allocations.some((a) => a.rule.on.includes(verb))) {
      await runAllocations(this, resource, rules.allocations, verb, row, depth);
      this.ruleLog?.settle(row, resource, keyOf(resource, row));
      row = this.current(resource, row);
    }
    if (!rules.after.some((e) => e.on.includes(verb))) return;
    await runRowEvents(this, resource, rules.after, verb, row, verb === 'INSERT' ? null : before, depth, false);
    this.ruleLog?.settle(row, resource, keyOf(resource, row));
  }

  /** The row's latest values as the summary holds them (rules may have changed it again). */
  private current(resource: Resource, row: CanonicalRow): CanonicalRow {
    return this.summary.latest(resource, keyOf(resource, row)) ?? row;
  }

  /** Reads a row under an update (or delete) lock, and remembers it as locked. */
  private async lockRow(resource: Resource, key: KeyValues, lock: RowLock): Promise<CanonicalRow | undefined> {
    const row = await this.store.findByKey(resource, key, lock);
    if (row) this.locked.set(rowIdentity(resource, keyOf(resource, row)), row);
    return row;
  }

  /** See `lockAncestors`: the rows this write of `resource` will adjust, locked first. SQLite has one writer: nothing to order. */
  private async lockAncestorsOf(resource: Resource, sources: (path: AncestorPath) => RowSource[]): Promise<void> {
    if (this.store.dialect === 'sqlite') return;
    const paths = ancestorPaths(resource, this.bank, this.registry);
    if (paths.length === 0) return;
    await lockAncestors(this.store, paths, sources, (ancestor, row) => {
      const id = rowIdentity(ancestor, keyOf(ancestor, row));
      // A row this transaction has changed already: the database gives back those changes too.
      this.locked.set(id, row);
    });
  }

  private async lockAndCheck(resource: Resource, key: KeyValues, checksum: string, lock: RowLock): Promise<CanonicalRow> {
    const row = await this.lockRow(resource, key, lock);
    if (!row) throw notFound(resource);
    this.checkChecksum(resource, row, checksum);
    return row;
  }

  private checkChecksum(resource: Resource, row: CanonicalRow, checksum: string): void {
    if (checksum !== CHECKSUM_OVERRIDE && checksum !== this.checksums.of(resource, row)) throw staleChecksum(resource);
  }

  /** Records rules that ran on a written row (its constraints, which all passed). */
  private recordAll(resource: Resource, row: CanonicalRow, rules: readonly Rule[]): void {
    if (!this.ruleLog || rules.length === 0) return;
    const key = keyOf(resource, row);
    for (const rule of rules) this.ruleLog.record(resource, key, rule);
  }

  private guard(depth: number): void {
    if (depth > MAX_DEPTH) throw rulesTooDeep();
  }
}

/** 500 / 5001: rules (events that write, aggregates, cascades) went deeper than the limit: they loop. */
function rulesTooDeep(): ApiError {
  return new ApiError(
    ErrorCode.RULES_TOO_DEEP,
    `The rules cascaded more than ${MAX_DEPTH} levels deep (an event that writes rows whose rules write again, in a loop); nothing was changed.`,
  );
}

/** 409 / 4090: the checksum sent is not the row's. */
export function staleChecksum(resource: Resource): ApiError {
  return new ApiError(
    ErrorCode.CHECKSUM_MISMATCH,
    `The ${resource.name} was changed by someone else; read it again and retry with its current checksum.`,
  );
}

function notFound(resource: Resource): ApiError {
  return new ApiError(ErrorCode.OBJECT_NOT_FOUND, `No ${resource.name} with that key.`);
}

/** The parents an updated row has now, and those it moves to when the change re-parents it. */
function updateSources(path: AncestorPath, key: KeyValues, changes: CanonicalRow): RowSource[] {
  const moves = path[0]!.relation.columns.some((pair) => pair.child in changes);
  return moves ? [{ key }, { key, values: changes }] : [{ key }];
}

/** A relation's parent-side values put into the parent's key-column order. */
function orderedKey(parent: Resource, relation: ParentRelation, values: CanonicalValue[]): KeyValues {
  return parent.primaryKey.map((column) => {
    const at = relation.columns.findIndex((pair) => pair.parent === column.name);
    return at >= 0 ? (values[at] ?? null) : null;
  });
}
