import { keyOf, type KeyValues } from '../../data/primary-key.js';
import type { Resource } from '../../data/resource-registry.js';
import type { CallerRowPolicy } from '../../security/caller-row-policy.js';
import type { CanonicalRow } from '../../data/value-codec.js';
import { CHECKSUM_OVERRIDE, type WriteTransaction } from '../../logic/write-transaction.js';
import type { ResourceAccess } from '../../security/resource-access.js';
import type { RuleLog } from '../../logic/rule-log.js';
import { DocumentAdmission } from './document-admission.js';
import type { PlannedObject } from './document-plan.js';
import { walkDocument, type Step } from './document-walk.js';
import { ObjectChecks, type DerivedSent, type UpdatePlan } from './object-checks.js';
import type { WriteLevel } from './write-level.js';
import { WrittenRows } from '../summary/summary-terms.js';

export interface WriteOptions {
  /** The key from the URL (a PUT on `<resource>/<key>`): the one top-level object's. */
  keySegment?: string;
  /** The checksum from If-Match, for a body of one top-level object. */
  ifMatch?: string;
  /** Where the rules that run are recorded (`rulesummary=true`). */
  ruleLog?: RuleLog;
  /** The URL's API version: the custom resources an object's `@metadata.entity` or href may name are that version's. */
  version?: string;
}

/**
 * Carries out a planned body inside one write transaction: each object's action (INSERT,
 * UPDATE, DELETE, LOOKUP, MERGE_INSERT), parents first (their keys fill this object's foreign
 * keys), then the object, then its children (their foreign keys filled from the object's row
 * as stored, generated keys included). A body of more than one object is admitted whole first
 * (see `DocumentAdmission`): every refusal an object earns by itself comes before any rule runs.
 * What the caller may do to each row is the policy's to say (`CallerRowPolicy`): the writer builds no security SQL.
 */
export class DocumentWriter {
  /** Whether a MERGE_INSERT of this attempt inserted: a duplicate key then means a concurrent insert of the same key. */
  mergeInserted = false;
  private readonly checks: ObjectChecks;

  constructor(
    private readonly tx: WriteTransaction,
    access: ResourceAccess,
    policy: CallerRowPolicy,
    derived: (resource: Resource) => ReadonlySet<string>,
    private readonly options: WriteOptions,
    derivedSent?: DerivedSent,
    /** Each row the body held, with its level: the summary shows those rows in the resource's terms (see `SummaryTerms`); shared by the writes of one transaction. */
    readonly written = new WrittenRows(),
  ) {
    this.checks = new ObjectChecks(tx, access, policy, derived, derivedSent);
  }

  /** Answers each top-level object's row as written (undefined for one deleted). */
  async writeAll(objects: readonly PlannedObject[]): Promise<Array<CanonicalRow | undefined>> {
    const one = objects.length === 1;
    const keySegment = one ? this.options.keySegment : undefined;
    const ifMatch = one ? this.options.ifMatch : undefined;
    if (!one || objects[0]!.children.length > 0 || objects[0]!.parents.length > 0) {
      const admission = new DocumentAdmission(this.tx, this.checks);
      for (const object of objects) await walkDocument(object, undefined, admission.step, keySegment, ifMatch);
    }
    await this.lockAncestorsUpFront(objects);
    const rows: Array<CanonicalRow | undefined> = [];
    for (const object of objects) rows.push(await walkDocument(object, undefined, this.act, keySegment, ifMatch));
    return rows;
  }

  private readonly act: Step = async (turn) => {
    const row = await this.actOn(turn);
    if (row) this.written.add(turn.object.level, keyOf(turn.object.level.resource, row));
    return row;
  };

  private async actOn({ object, filled, keySegment, ifMatch }: Parameters<Step>[0]): Promise<CanonicalRow | undefined> {
    const { level, metadata, sent } = object;
    switch (object.action) {
      case 'INSERT':
        return this.tx.insert(level.resource, this.checks.insertable(level, sent, filled));
      case 'UPDATE': {
        const target = this.checks.target(object, filled, keySegment, true)!;
        const checksum = this.checks.checksumOf(object, ifMatch, 'update');
        const key = await this.checks.located(level, target);
        return this.update(level, key, checksum, await this.checks.updatePlan(level, sent, filled, key));
      }
      case 'DELETE': {
        this.checks.require(level.resource, 'DELETE');
        const target = this.checks.target(object, filled, keySegment, true)!;
        const checksum = this.checks.checksumOf(object, ifMatch, 'delete');
        const key = await this.checks.located(level, target);
        await this.tx.delete(level.resource, key, checksum);
        this.written.add(level, key);
        return undefined;
      }
      case 'LOOKUP':
        return this.checks.lookup(level, this.checks.lookupCriteria(object, { ...sent, ...filled }));
      case 'MERGE_INSERT': {
        const target = this.checks.target(object, filled, keySegment, false);
        const key = target && (await this.checks.locate(level, target));
        // Not locked here: the update locks the row itself, after its ancestors (the engine's lock order).
        if (key && (await this.checks.exists(level.resource, key))) {
          const checksum = metadata.checksum ?? ifMatch ?? CHECKSUM_OVERRIDE;
          return this.update(level, key, checksum, await this.checks.updatePlan(level, sent, filled, key));
        }
        this.mergeInserted = true;
        return this.tx.insert(level.resource, this.checks.insertable(level, sent, filled));
      }
    }
  }

  private update(level: WriteLevel, key: KeyValues, checksum: string, plan: UpdatePlan): Promise<CanonicalRow> {
    // An update that changes nothing is listed in the summary on a table's level (as before), not on a custom resource's.
    const recordUnchanged = level.tableResource;
    const options = { fixed: plan.fixed, refuse: plan.refuse, recordUnchanged, readOnly: plan.readOnly };
    return this.tx.update(level.resource, key, plan.changes, checksum, options);
  }

  /** A flat body of several inserts or updates locks every row's ancestors at once (see `lockAncestorsOfMany`). */
  private async lockAncestorsUpFront(objects: readonly PlannedObject[]): Promise<void> {
    if (objects.length < 2) return;
    const [first] = objects;
    const level = first!.level;
    const flat = objects.every((o) => o.children.length === 0 && o.parents.length === 0 && o.level === level);
    if (!flat) return;
    if (objects.every((o) => o.action === 'INSERT')) {
      await this.tx.lockAncestorsOfMany(
        level.resource,
        objects.map((o) => ({ values: o.sent })),
      );
    } else if (objects.every((o) => o.action === 'UPDATE' && o.key === undefined)) {
      const keys = objects.map((o) => this.checks.keyOf(level, o.sent, {}, o.metadata.href, undefined, false));
      if (keys.some((key) => key === undefined)) return; // the write itself answers 400
      await this.tx.lockAncestorsOfMany(
        level.resource,
        objects.map((o, i) => ({ key: keys[i]!, values: o.sent })),
      );
    }
  }
}
