import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import { keyOf, parseKeySegment, type KeyValues } from '../../data/primary-key.js';
import type { Resource, ResourceRegistry } from '../../data/resource-registry.js';
import { paramsFor, type Params } from '../../data/row-store.js';
import { sameValue, type CanonicalRow } from '../../data/value-codec.js';
import type { Unsettled } from '../../data/values-column-resolver.js';
import { CHECKSUM_OVERRIDE, staleChecksum, type WriteTransaction } from '../../logic/write-transaction.js';
import { roleFilterSql, type ResourceAccess, type SqlContext } from '../../security/resource-access.js';
import type { Operation } from '../../security/role-definition.js';
import { missingRequired } from '../request-body.js';
import type { RuleLog } from '../../logic/rule-log.js';
import type { PlannedObject } from './document-plan.js';
import { EarlierWrites } from './earlier-writes.js';
import type { WriteAction } from './write-action.js';
import type { WriteLevel } from './write-level.js';

export interface WriteOptions {
  /** The key from the URL (a PUT on `<resource>/<key>`): the one top-level object's. */
  keySegment?: string;
  /** The checksum from If-Match, for a body of one top-level object. */
  ifMatch?: string;
  /** An update that changes nothing is listed in the summary (table resources, as before); a document's are not. */
  recordUnchanged: boolean;
  /** Where the rules that run are recorded (`rulesummary=true`). */
  ruleLog?: RuleLog;
}

type Relation = WriteLevel['children'][number]['relation'];
type Parented = { relation: Relation; row: CanonicalRow } | undefined;

/** One object's turn in a walk of the body (see `walk`): what it is, and what its parents fill in. */
type Step = (turn: {
  object: PlannedObject;
  filled: CanonicalRow;
  unknown: ReadonlySet<string>;
  keySegment?: string;
  ifMatch?: string;
}) => Promise<CanonicalRow | undefined>;

/** An update as the writer will send it to the engine (see `updatePlan`). */
interface UpdatePlan {
  readOnly: boolean;
  changes: CanonicalRow;
  fixed: CanonicalRow;
  refuse: (columns: string[]) => Error;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Carries out a planned body inside one write transaction: each object's action (INSERT,
 * UPDATE, DELETE, LOOKUP, MERGE_INSERT), parents first (their keys fill this object's foreign
 * keys), then the object, then its children (their foreign keys filled from the object's row
 * as stored, generated keys included). Each action needs the caller's grant for it on the
 * object's table (403 / 4030); row filters are the policy's (see `RowPolicy`).
 */
export class DocumentWriter {
  /** Whether a MERGE_INSERT of this attempt inserted: a duplicate key then means a concurrent insert of the same key. */
  mergeInserted = false;
  /** The writes of the objects admitted so far (see `admit`). */
  private readonly earlier = new EarlierWrites();

  constructor(
    private readonly tx: WriteTransaction,
    private readonly access: ResourceAccess,
    private readonly registry: ResourceRegistry,
    private readonly derived: (resource: Resource) => ReadonlySet<string>,
    private readonly options: WriteOptions,
  ) {}

  async writeAll(objects: readonly PlannedObject[]): Promise<void> {
    const one = objects.length === 1;
    const keySegment = one ? this.options.keySegment : undefined;
    const ifMatch = one ? this.options.ifMatch : undefined;
    if (!one || objects[0]!.children.length > 0 || objects[0]!.parents.length > 0) {
      for (const object of objects) await this.walk(object, undefined, this.admit, keySegment, ifMatch);
    }
    await this.lockAncestorsUpFront(objects);
    for (const object of objects) await this.walk(object, undefined, this.act, keySegment, ifMatch);
  }

  /**
   * Visits an object as it is written: its parent objects first (their rows fill its foreign
   * keys), then the object, then its children (their foreign keys filled from its row). A
   * column filled from a row that does not hold it yet (a key the database will generate) is
   * `unknown`. Answers the object's row, undefined when it is deleted.
   */
  private async walk(
    object: PlannedObject,
    parent: Parented,
    step: Step,
    keySegment?: string,
    ifMatch?: string,
  ): Promise<CanonicalRow | undefined> {
    const { level } = object;
    const filled: CanonicalRow = {};
    const unknown = new Set<string>();
    for (const { link, object: parentObject } of object.parents) {
      const parentRow = await this.walk(parentObject, undefined, step);
      if (!parentRow) throw new ApiError(ErrorCode.BAD_REQUEST, `The parent "${link.name}" of ${level.path} cannot be deleted here.`);
      fill(filled, unknown, link.relation, parentRow);
    }
    if (parent) fill(filled, unknown, parent.relation, parent.row);
    const row = await step({ object, filled, unknown, keySegment, ifMatch });
    if (!row) return undefined;
    for (const { link, objects } of object.children) {
      for (const child of objects) await this.walk(child, { relation: link.relation, row }, step);
    }
    return row;
  }

  private readonly act: Step = async ({ object, filled, keySegment, ifMatch }) => {
    const { level, metadata, sent } = object;
    switch (object.action) {
      case 'INSERT':
        return this.tx.insert(level.resource, this.insertable(level, sent, filled));
      case 'UPDATE': {
        const key = this.keyOf(level, sent, filled, metadata.href, keySegment, true)!;
        const checksum = this.checksumOf(object, ifMatch);
        return this.update(level, key, checksum, await this.updatePlan(level, sent, filled, key));
      }
      case 'DELETE': {
        this.require(level.resource, 'DELETE');
        const key = this.keyOf(level, sent, filled, metadata.href, keySegment, true)!;
        await this.tx.delete(level.resource, key, this.deleteChecksumOf(object, ifMatch));
        return undefined;
      }
      case 'LOOKUP':
        return this.lookup(level, { ...sent, ...filled });
      case 'MERGE_INSERT': {
        const key = this.keyOf(level, sent, filled, metadata.href, keySegment, false);
        // Not locked here: the update locks the row itself, after its ancestors (the engine's lock order).
        if (key && (await this.exists(level.resource, key))) {
          const checksum = metadata.checksum ?? ifMatch ?? CHECKSUM_OVERRIDE;
          return this.update(level, key, checksum, await this.updatePlan(level, sent, filled, key));
        }
        this.mergeInserted = true;
        return this.tx.insert(level.resource, this.insertable(level, sent, filled));
      }
    }
  };

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
  private readonly admit: Step = async ({ object, filled, unknown, keySegment, ifMatch }) => {
    const { level, metadata, sent } = object;
    const resource = level.resource;
    const keyKnown = !resource.primaryKey.some((c) => unknown.has(c.name)) || keySegment !== undefined || metadata.href !== undefined;
    const keyed = (required: boolean): KeyValues | undefined =>
      keyKnown ? this.keyOf(level, sent, filled, metadata.href, keySegment, required) : undefined;
    switch (object.action) {
      case 'INSERT':
        return this.admitInsert(level, sent, filled, unknown);
      case 'UPDATE': {
        const key = keyed(true);
        const checksum = this.checksumOf(object, ifMatch);
        return key ? this.admitUpdate(level, sent, filled, unknown, key, checksum) : known(sent, filled, unknown);
      }
      case 'DELETE': {
        this.require(resource, 'DELETE');
        const key = keyed(true);
        const checksum = this.deleteChecksumOf(object, ifMatch);
        if (key && !this.namedAgain(resource, key, checksum)) await this.tx.admit(resource, key, checksum, 'DELETE');
        this.earlier.add(resource, 'DELETE', key, {});
        return undefined;
      }
      case 'LOOKUP': {
        const criteria = known(sent, filled, unknown);
        if (this.earlier.mayMatch(resource, criteria)) return criteria;
        if (unknown.size === 0) return this.lookup(level, criteria);
        // Some criteria come from a parent not written yet: no match on the others is no match at all.
        if (Object.keys(criteria).length > 0) await this.lookup(level, criteria, false);
        return criteria;
      }
      case 'MERGE_INSERT': {
        const key = keyed(false);
        if (key && (this.earlier.writes(resource, key) || (await this.exists(resource, key)))) {
          return this.admitUpdate(level, sent, filled, unknown, key, metadata.checksum ?? ifMatch ?? CHECKSUM_OVERRIDE, 'MERGE_INSERT');
        }
        return this.admitInsert(level, sent, filled, unknown);
      }
    }
  };

  private async admitInsert(
    level: WriteLevel,
    sent: CanonicalRow,
    filled: CanonicalRow,
    unknown: ReadonlySet<string>,
  ): Promise<CanonicalRow> {
    const resource = level.resource;
    const values = this.insertable(level, sent, filled, unknown);
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
    const plan = await this.updatePlan(level, sent, filled, key);
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
    this.earlier.add(resource, action, key, plan.changes, changed || !this.readable(resource, Object.keys(plan.changes)));
    return row;
  }

  /** Whether the caller may read these columns in every row it may read. */
  private readable(resource: Resource, columns: readonly string[]): boolean {
    const access = this.access.to(resource);
    const readable = access.readable();
    return columns.every((name) => (readable === undefined || readable.has(name)) && !access.columnGrants(name, false));
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

  /**
   * The values of an insert: sent ones, and foreign keys filled from a parent object (set by
   * the insert like values sent, so checked like them; `unknown` ones are filled later).
   */
  private insertable(level: WriteLevel, sent: CanonicalRow, filled: CanonicalRow, unknown: ReadonlySet<string> = NONE): CanonicalRow {
    const resource = level.resource;
    this.require(resource, 'INSERT');
    const derived = this.derived(resource);
    const granted = this.access.to(resource).writable('INSERT');
    const refused = [...new Set([...Object.keys(sent), ...Object.keys(filled), ...unknown])].filter(
      (name) => derived.has(name) || resource.columnsByName.get(name)!.generated || (granted !== undefined && !granted.has(name)),
    );
    if (refused.length > 0) throw notWritable(level, refused);
    const values = known(sent, filled, unknown);
    const missing = missingRequired(resource, values).filter((name) => !unknown.has(name));
    if (missing.length > 0) {
      throw new ApiError(ErrorCode.BAD_REQUEST, `Missing required column(s) of ${resource.name}: ${missing.join(', ')}.`);
    }
    return values;
  }

  private update(level: WriteLevel, key: KeyValues, checksum: string, plan: UpdatePlan): Promise<CanonicalRow> {
    const options = { fixed: plan.fixed, refuse: plan.refuse, recordUnchanged: this.options.recordUnchanged, readOnly: plan.readOnly };
    return this.tx.update(level.resource, key, plan.changes, checksum, options);
  }

  /**
   * How an update treats what was sent. Values for columns the caller may not write (derived,
   * generated, the key, outside its grant's columns: a round trip of what it read) must equal
   * the stored ones, compared on the row the checksum check reads. Without any UPDATE grant on
   * the table the object must be unchanged altogether (403 otherwise); its checksum is checked
   * all the same.
   */
  private async updatePlan(level: WriteLevel, sent: CanonicalRow, filled: CanonicalRow, key: KeyValues): Promise<UpdatePlan> {
    const resource = level.resource;
    resource.primaryKey.forEach((column, i) => {
      if (column.name in sent && !sameValue(column.kind, sent[column.name], key[i])) {
        throw new ApiError(ErrorCode.UNKNOWN_COLUMN, `The primary key "${column.name}" cannot be changed.`);
      }
    });
    const access = this.access.to(resource);
    if (!access.can('UPDATE')) {
      await this.refuseUnreadable(level, sent, key);
      return { readOnly: true, changes: {}, fixed: { ...sent, ...filled }, refuse: () => forbidden(resource, 'UPDATE') };
    }
    const derived = this.derived(resource);
    const granted = access.writable('UPDATE');
    const changes: CanonicalRow = {};
    const fixed: CanonicalRow = {};
    const writable = (name: string): boolean => {
      const column = resource.columnsByName.get(name)!;
      return !derived.has(name) && !column.primary && !column.generated && (granted === undefined || granted.has(name));
    };
    for (const [name, value] of Object.entries(sent)) (writable(name) ? changes : fixed)[name] = value;
    await this.refuseUnreadable(level, fixed, key, 'UPDATE');
    // A foreign key filled from the parent object moves the row when it differs: a change like any other.
    for (const [name, value] of Object.entries(filled)) (writable(name) ? changes : fixed)[name] = value;
    return { readOnly: false, changes, fixed, refuse: (columns) => notWritable(level, columns) };
  }

  /**
   * The one row the caller may read whose columns equal the values given; 0 or several (unless
   * `onlyOne` is false): 400 / 4000. Changes nothing.
   */
  private async lookup(level: WriteLevel, criteria: CanonicalRow, onlyOne = true): Promise<CanonicalRow> {
    const resource = level.resource;
    this.require(resource, 'READ');
    await this.refuseUnreadable(level, criteria);
    const names = Object.keys(criteria);
    if (names.length === 0) throw new ApiError(ErrorCode.BAD_REQUEST, `A LOOKUP of ${level.path} needs at least one attribute to match.`);
    const store = this.tx.store;
    const params = paramsFor(store.dialect);
    const where = names.map((name) => {
      const value = criteria[name] ?? null;
      const column = `${store.q('t')}.${store.q(name)}`;
      return value === null ? `${column} IS NULL` : `${column} = ${store.compared(resource.columnsByName.get(name)!, value, params)}`;
    });
    const access = this.access.to(resource);
    const rowFilter = access.rowPredicate('READ', roleFilterSql(resource, this.registry, store.dialect, params));
    if (rowFilter) where.push(rowFilter);
    // A column some rows hide matches only in the rows that show it: elsewhere a guess of it must find nothing either way.
    for (const name of names) {
      const grants = access.columnGrants(name, false);
      if (grants) where.push(access.grantsPredicate(grants, roleFilterSql(resource, this.registry, store.dialect, params)));
    }
    const found = await store.page(resource, { where, orderBy: [] }, params, 2, 0);
    const shown = names.map((n) => aliasOf(level, n)).join(', ');
    if (found.length === 0) throw new ApiError(ErrorCode.BAD_REQUEST, `LOOKUP of ${level.path} found no row matching ${shown}.`);
    if (found.length > 1 && onlyOne)
      throw new ApiError(ErrorCode.BAD_REQUEST, `LOOKUP of ${level.path} found more than one row matching ${shown}.`);
    return found[0]!.row;
  }

  /**
   * The key of the object: the URL's, its href's (the level's path or the table's name followed by
   * the key), or its key columns (sent, or filled from its parent). Undefined when none is complete
   * and `required` is false.
   */
  private keyOf(
    level: WriteLevel,
    sent: CanonicalRow,
    filled: CanonicalRow,
    href: string | undefined,
    keySegment: string | undefined,
    required: boolean,
  ): KeyValues | undefined {
    const resource = level.resource;
    if (keySegment !== undefined) return parseKeySegment(resource, keySegment);
    if (href !== undefined) {
      const path = href.replace(/[?#].*$/, '');
      // ASCII case only: a full toLowerCase may change the text's length ("İ" becomes two code
      // units), and the key would then be cut from the wrong place (a neighbour's key).
      const folded = asciiLowerCase(path);
      for (const name of new Set([level.path, resource.name])) {
        const marker = `/${asciiLowerCase(name)}/`;
        const at = folded.lastIndexOf(marker);
        if (at >= 0) return parseKeySegment(resource, path.slice(at + marker.length));
      }
      throw new ApiError(ErrorCode.BAD_REQUEST, `@metadata.href does not name a ${level.path}.`);
    }
    const values = { ...sent, ...filled };
    if (resource.primaryKey.every((c) => c.name in values)) return keyOf(resource, values);
    if (!required) return undefined;
    throw new ApiError(
      ErrorCode.BAD_REQUEST,
      `Each object of ${level.path} needs @metadata.href or its key attribute(s): ${resource.primaryKey.map((c) => aliasOf(level, c.name)).join(', ')}.`,
    );
  }

  /**
   * Values compared with stored ones must be of columns the caller may read in that row: nothing
   * about the others may be inferred. Where a column shows only in the rows some row-filtered
   * grants admit, it counts as readable in the row with this key only when one of them admits it
   * (a LOOKUP, without a key, matches such a column only in those rows); in a row no READ grant
   * admits (one the caller may only `change`), no column is readable. A row the caller may
   * neither read nor change is left to the write's own check, which answers 404 as for a
   * missing one.
   */
  private async refuseUnreadable(level: WriteLevel, values: CanonicalRow, key?: KeyValues, change?: 'UPDATE'): Promise<void> {
    const resource = level.resource;
    const access = this.access.to(resource);
    const readable = access.readable();
    const names = Object.keys(values);
    const unreadable = readable === undefined ? [] : names.filter((name) => !readable.has(name));
    const byRow = key ? names.filter((name) => !unreadable.includes(name) && access.columnGrants(name, false)) : [];
    const rowDecides = key !== undefined && names.length > unreadable.length && !access.coversEveryRow('READ');
    if (byRow.length > 0 || rowDecides) {
      const dialect = this.tx.store.dialect;
      const sql = (params: Params): SqlContext => roleFilterSql(resource, this.registry, dialect, params);
      const operations: Operation[] = change ? ['READ', change] : ['READ'];
      const tested = await this.tx.store.test(resource, key!, [
        ...operations.map((operation) => (params: Params) => access.rowPredicate(operation, sql(params)) ?? '(1=1)'),
        ...byRow.map((name) => (params: Params) => access.grantsPredicate(access.columnGrants(name, false)!, sql(params))),
      ]);
      const [visible, changeable] = tested ?? [];
      if (visible) unreadable.push(...byRow.filter((_, i) => !tested![operations.length + i]));
      else if (changeable) unreadable.splice(0, unreadable.length, ...names);
    }
    if (unreadable.length > 0) throw notWritable(level, unreadable);
  }

  /**
   * Whether the caller may know the row with this key exists: some READ or UPDATE grant admits it.
   * A MERGE_INSERT treats any other row as absent (an insert then, answered as for a new key),
   * so that updating it (404) does not tell it from a key that is free.
   */
  private async mayKnow(resource: Resource, key: KeyValues): Promise<boolean> {
    const access = this.access.to(resource);
    if (access.coversEveryRow('READ') || access.coversEveryRow('UPDATE')) return true;
    const dialect = this.tx.store.dialect;
    const predicate = (operation: Operation) => (params: Params) =>
      access.rowPredicate(operation, roleFilterSql(resource, this.registry, dialect, params)) ?? '(1=1)';
    const admitted = await this.tx.store.test(resource, key, [predicate('READ'), predicate('UPDATE')]);
    return admitted !== undefined && admitted.some(Boolean);
  }

  /** Whether a row with this key exists that the caller may know of (see `mayKnow`): a MERGE_INSERT then updates it. */
  private async exists(resource: Resource, key: KeyValues): Promise<boolean> {
    return (await this.tx.store.findByKey(resource, key, false)) !== undefined && (await this.mayKnow(resource, key));
  }

  private deleteChecksumOf(object: PlannedObject, ifMatch: string | undefined): string {
    const checksum = object.metadata.checksum ?? ifMatch;
    if (!checksum) {
      throw new ApiError(
        ErrorCode.CHECKSUM_REQUIRED,
        `A delete needs the object's current checksum in @metadata.checksum (or "${CHECKSUM_OVERRIDE}").`,
      );
    }
    return checksum;
  }

  private checksumOf(object: PlannedObject, ifMatch: string | undefined): string {
    const checksum = object.metadata.checksum ?? ifMatch;
    if (!checksum) {
      throw new ApiError(
        ErrorCode.CHECKSUM_REQUIRED,
        'An update needs the object\'s current checksum in @metadata.checksum (or "override").',
      );
    }
    return checksum;
  }

  private require(resource: Resource, operation: Operation): void {
    if (!this.access.to(resource).can(operation)) throw forbidden(resource, operation);
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
    } else if (objects.every((o) => o.action === 'UPDATE')) {
      const keys = objects.map((o) => this.keyOf(level, o.sent, {}, o.metadata.href, undefined, false));
      if (keys.some((key) => key === undefined)) return; // the write itself answers 400
      await this.tx.lockAncestorsOfMany(
        level.resource,
        objects.map((o, i) => ({ key: keys[i]!, values: o.sent })),
      );
    }
  }
}

/** Fills the foreign key of `relation` from the row it points to; a column that row does not hold yet is unknown. */
function fill(filled: CanonicalRow, unknown: Set<string>, relation: Relation, row: CanonicalRow): void {
  for (const pair of relation.columns) {
    if (pair.parent in row) filled[pair.child] = row[pair.parent] ?? null;
    else unknown.add(pair.child);
  }
}

/** The values an object will be written with, as far as they are known: sent ones, overridden by filled ones. */
function known(sent: CanonicalRow, filled: CanonicalRow, unknown: ReadonlySet<string>): CanonicalRow {
  const values = { ...sent, ...filled };
  if (unknown.size === 0) return values;
  return Object.fromEntries(Object.entries(values).filter(([name]) => !unknown.has(name)));
}

function asciiLowerCase(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

function aliasOf(level: WriteLevel, column: string): string {
  for (const [name, c] of level.attributes) if (c === column) return name;
  return column;
}

function notWritable(level: WriteLevel, columns: string[]): ApiError {
  return new ApiError(
    ErrorCode.UNKNOWN_COLUMN,
    `Not a writable column of ${level.path}: ${columns.map((n) => `"${aliasOf(level, n).slice(0, 64)}"`).join(', ')}.`,
  );
}

function forbidden(resource: Resource, operation: Operation): ApiError {
  return new ApiError(ErrorCode.FORBIDDEN, `Your roles do not permit ${operation} on ${resource.name}.`);
}
