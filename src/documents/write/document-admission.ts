import { keyOf, type KeyValues } from '../../data/primary-key.js';
import type { Resource } from '../../data/resource-registry.js';
import { sameValue, type CanonicalRow } from '../../data/value-codec.js';
import type { Unsettled } from '../../data/values-column-resolver.js';
import { CHECKSUM_OVERRIDE, staleChecksum, type WriteTransaction } from '../../logic/write-transaction.js';
import type { PlannedObject } from './document-plan.js';
import { known, type Step } from './document-walk.js';
import { EarlierWrites } from './earlier-writes.js';
import type { KeyTarget, ObjectChecks } from './object-checks.js';
import type { WriteAction } from './write-action.js';
import type { WriteLevel } from './write-level.js';

/** The admission of a body's objects (see `step`), before the writer writes any of them; one per attempt of a write. */
export class DocumentAdmission {
  /** The writes of the objects admitted so far. */
  private readonly earlier = new EarlierWrites();

  constructor(
    private readonly tx: WriteTransaction,
    private readonly checks: ObjectChecks,
  ) {}

  /**
   * Admission: every refusal an object of a document earns by itself (its grant, its row
   * filters before and after, its writable and readable columns, its checksum, a LOOKUP that
   * finds no row) is decided for all of them before the first is written, and so before any
   * rule runs. Otherwise a later object's refusal would answer only when the rules of the
   * earlier ones passed, and tell what those rules read (a credit limit the caller cannot see).
   * Rows are judged as committed before the request; nothing is written or locked, and the
   * write asks every question again. Left to the write is only what the request itself
   * settles first: a value rules derive, a parent's generated key, a row an earlier object of
   * the body writes (its key named again, a LOOKUP it could match, a parent a filter reads).
   * Answers the object's row as far as it is known.
   */
  readonly step: Step = async ({ object, filled, unknown, keySegment, ifMatch }) => {
    const { level, metadata, sent } = object;
    const resource = level.resource;
    const keyColumns = object.key ?? resource.primaryKey.map((c) => c.name);
    const byHref = object.key === undefined && metadata.href !== undefined;
    const keyKnown = !keyColumns.some((c) => unknown.has(c)) || keySegment !== undefined || byHref;
    const targetOf = (required: boolean): KeyTarget | undefined =>
      keyKnown ? this.checks.target(object, filled, keySegment, required) : undefined;
    // The row a target names, as committed before the request; 'unsettled' when the request decides it first.
    const located = async (target: KeyTarget | undefined, required: boolean): Promise<KeyValues | undefined | 'unsettled'> => {
      if (!target || 'key' in target) return target?.key;
      // An earlier object of the body may give a row these values, or take them away.
      if (this.earlier.mayMatch(resource, target.criteria)) return 'unsettled';
      return required ? this.checks.located(level, target) : this.checks.locate(level, target);
    };
    switch (object.action) {
      case 'INSERT':
        return this.admitInsert(level, sent, filled, unknown);
      case 'UPDATE': {
        const target = targetOf(true);
        const checksum = this.checks.checksumOf(object, ifMatch, 'update');
        const key = await located(target, true);
        if (key === 'unsettled') return this.leftToWrite(object, filled, unknown);
        return key ? this.admitUpdate(level, sent, filled, unknown, key, checksum) : known(sent, filled, unknown);
      }
      case 'DELETE': {
        this.checks.require(resource, 'DELETE');
        const target = targetOf(true);
        const checksum = this.checks.checksumOf(object, ifMatch, 'delete');
        const found = await located(target, true);
        const key = found === 'unsettled' ? undefined : found;
        if (key && !this.namedAgain(resource, key, checksum)) await this.tx.admit(resource, key, checksum, 'DELETE');
        this.earlier.add(resource, 'DELETE', key, {});
        return undefined;
      }
      case 'LOOKUP': {
        const criteria = this.checks.lookupCriteria(object, known(sent, filled, unknown), unknown);
        if (this.earlier.mayMatch(resource, criteria)) return criteria;
        const pending = object.key === undefined ? unknown.size > 0 : object.key.some((c) => unknown.has(c));
        if (!pending) return this.checks.lookup(level, criteria);
        // Some criteria come from a parent not written yet: no match on the others is no match at all.
        if (Object.keys(criteria).length > 0) await this.checks.lookup(level, criteria, false);
        return criteria;
      }
      case 'MERGE_INSERT': {
        const key = await located(targetOf(false), false);
        if (key === 'unsettled') return this.leftToWrite(object, filled, unknown);
        if (key && (this.earlier.writes(resource, key) || (await this.checks.exists(resource, key)))) {
          return this.admitUpdate(level, sent, filled, unknown, key, metadata.checksum ?? ifMatch ?? CHECKSUM_OVERRIDE, 'MERGE_INSERT');
        }
        return this.admitInsert(level, sent, filled, unknown);
      }
    }
  };

  /** An object whose row the earlier objects decide (see `located`): the write judges it; the next objects know it may write any row. */
  private leftToWrite(object: PlannedObject, filled: CanonicalRow, unknown: ReadonlySet<string>): CanonicalRow {
    const values = known(object.sent, filled, unknown);
    this.earlier.add(object.level.resource, object.action, undefined, values);
    return values;
  }

  private async admitInsert(
    level: WriteLevel,
    sent: CanonicalRow,
    filled: CanonicalRow,
    unknown: ReadonlySet<string>,
  ): Promise<CanonicalRow> {
    const resource = level.resource;
    const values = this.checks.insertable(level, sent, filled, unknown);
    await this.tx.admitValues(resource, values, 'INSERT', this.unsettled(resource, unknown));
    const key = resource.primaryKey.every((c) => c.name in values) ? keyOf(resource, values) : undefined;
    this.earlier.add(resource, 'INSERT', key, values);
    return values;
  }

  private async admitUpdate(
    level: WriteLevel,
    sent: CanonicalRow,
    filled: CanonicalRow,
    unknown: ReadonlySet<string>,
    key: KeyValues,
    checksum: string,
    action: WriteAction = 'UPDATE',
  ): Promise<CanonicalRow> {
    const resource = level.resource;
    const plan = await this.checks.updatePlan(level, sent, filled, key);
    if (this.namedAgain(resource, key, checksum)) {
      this.earlier.add(resource, action, key, plan.changes);
      return { ...sent, ...plan.changes };
    }
    const stored = await this.tx.admit(resource, key, checksum, plan.readOnly ? 'READ' : 'UPDATE', plan);
    const row = { ...stored, ...plan.changes };
    const changed = Object.keys(plan.changes).some(
      (name) => !sameValue(resource.columnsByName.get(name)!.kind, plan.changes[name], stored[name]),
    );
    if (changed) await this.tx.admitValues(resource, row, 'UPDATE', this.unsettled(resource, unknown));
    // Whether a value the caller cannot read changes is not for the next objects to tell.
    this.earlier.add(resource, action, key, plan.changes, changed || !this.checks.readable(resource, Object.keys(plan.changes)));
    return row;
  }

  /**
   * Whether an earlier object of the body writes this row. Its checksum then says nothing of
   * the row as this object finds it, so only "override" is accepted (409 otherwise), whatever
   * the earlier object changed: a stale answer only when it changed something would tell a
   * value the caller may write but not read.
   */
  private namedAgain(resource: Resource, key: KeyValues, checksum: string): boolean {
    if (!this.earlier.writes(resource, key)) return false;
    if (checksum !== CHECKSUM_OVERRIDE) throw staleChecksum(resource);
    return true;
  }

  /** Columns of an object's row, or of the parent rows its filters read, that the request settles before the object is written. */
  private unsettled(resource: Resource, unknown: ReadonlySet<string>): Unsettled {
    return (table, column, viaParent) => (viaParent ? this.earlier.wrote(table) : table === resource && unknown.has(column));
  }
}
