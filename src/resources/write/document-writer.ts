import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import { keyOf, parseKeySegment, type KeyValues } from '../../data/primary-key.js';
import type { Resource, ResourceRegistry } from '../../data/resource-registry.js';
import { paramsFor, type Params } from '../../data/row-store.js';
import { sameValue, type CanonicalRow } from '../../data/value-codec.js';
import { CHECKSUM_OVERRIDE, type WriteTransaction } from '../../logic/write-transaction.js';
import { roleFilterSql, type ResourceAccess, type SqlContext } from '../../security/resource-access.js';
import type { Operation } from '../../security/role-definition.js';
import { missingRequired } from '../request-body.js';
import type { RuleLog } from '../../logic/rule-log.js';
import type { PlannedObject } from './document-plan.js';
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

type Parented = { relation: WriteLevel['children'][number]['relation']; row: CanonicalRow } | undefined;

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

  constructor(
    private readonly tx: WriteTransaction,
    private readonly access: ResourceAccess,
    private readonly registry: ResourceRegistry,
    private readonly derived: (resource: Resource) => ReadonlySet<string>,
    private readonly options: WriteOptions,
  ) {}

  async writeAll(objects: readonly PlannedObject[]): Promise<void> {
    await this.lockAncestorsUpFront(objects);
    const one = objects.length === 1;
    for (const object of objects) {
      await this.write(object, undefined, one ? this.options.keySegment : undefined, one ? this.options.ifMatch : undefined);
    }
  }

  private async write(object: PlannedObject, parent: Parented, keySegment?: string, ifMatch?: string): Promise<CanonicalRow | undefined> {
    const { level } = object;
    const filled: CanonicalRow = {};
    for (const { link, object: parentObject } of object.parents) {
      const parentRow = await this.write(parentObject, undefined);
      if (!parentRow) throw new ApiError(ErrorCode.BAD_REQUEST, `The parent "${link.name}" of ${level.path} cannot be deleted here.`);
      for (const pair of link.relation.columns) filled[pair.child] = parentRow[pair.parent] ?? null;
    }
    if (parent) for (const pair of parent.relation.columns) filled[pair.child] = parent.row[pair.parent] ?? null;
    const row = await this.act(object, filled, keySegment, ifMatch);
    if (!row) return undefined;
    for (const { link, objects } of object.children) {
      for (const child of objects) await this.write(child, { relation: link.relation, row });
    }
    return row;
  }

  private async act(object: PlannedObject, filled: CanonicalRow, keySegment?: string, ifMatch?: string): Promise<CanonicalRow | undefined> {
    const { level, metadata, sent } = object;
    switch (object.action) {
      case 'INSERT':
        return this.insert(level, sent, filled);
      case 'UPDATE':
        return this.update(
          level,
          sent,
          filled,
          this.keyOf(level, sent, filled, metadata.href, keySegment, true)!,
          this.checksumOf(object, ifMatch),
        );
      case 'DELETE': {
        this.require(level.resource, 'DELETE');
        const key = this.keyOf(level, sent, filled, metadata.href, keySegment, true)!;
        const checksum = metadata.checksum ?? ifMatch;
        if (!checksum) {
          throw new ApiError(
            ErrorCode.CHECKSUM_REQUIRED,
            `A delete needs the object's current checksum in @metadata.checksum (or "${CHECKSUM_OVERRIDE}").`,
          );
        }
        await this.tx.delete(level.resource, key, checksum);
        return undefined;
      }
      case 'LOOKUP':
        return this.lookup(level, { ...sent, ...filled });
      case 'MERGE_INSERT': {
        const key = this.keyOf(level, sent, filled, metadata.href, keySegment, false);
        // Not locked here: the update locks the row itself, after its ancestors (the engine's lock order).
        const existing = key && (await this.tx.store.findByKey(level.resource, key, false)) && (await this.mayKnow(level.resource, key));
        if (key && existing) return this.update(level, sent, filled, key, metadata.checksum ?? ifMatch ?? CHECKSUM_OVERRIDE);
        this.mergeInserted = true;
        return this.insert(level, sent, filled);
      }
    }
  }

  private async insert(level: WriteLevel, sent: CanonicalRow, filled: CanonicalRow): Promise<CanonicalRow> {
    const resource = level.resource;
    this.require(resource, 'INSERT');
    const derived = this.derived(resource);
    const granted = this.access.to(resource).writable('INSERT');
    // A foreign key filled from a parent object is set by this insert like a value sent.
    const refused = Object.keys({ ...sent, ...filled }).filter(
      (name) => derived.has(name) || resource.columnsByName.get(name)!.generated || (granted !== undefined && !granted.has(name)),
    );
    if (refused.length > 0) throw notWritable(level, refused);
    const values = { ...sent, ...filled };
    const missing = missingRequired(resource, values);
    if (missing.length > 0) {
      throw new ApiError(ErrorCode.BAD_REQUEST, `Missing required column(s) of ${resource.name}: ${missing.join(', ')}.`);
    }
    return this.tx.insert(resource, values);
  }

  /**
   * An update; values sent for columns the caller may not write (derived, generated, the key,
   * outside its grant's columns: a round trip of what it read) must equal the stored ones,
   * compared on the row the checksum check reads. Without any UPDATE grant on the table the
   * object must be unchanged altogether (403 otherwise); its checksum is checked all the same.
   */
  private async update(
    level: WriteLevel,
    sent: CanonicalRow,
    filled: CanonicalRow,
    key: KeyValues,
    checksum: string,
  ): Promise<CanonicalRow> {
    const resource = level.resource;
    resource.primaryKey.forEach((column, i) => {
      if (column.name in sent && !sameValue(column.kind, sent[column.name], key[i])) {
        throw new ApiError(ErrorCode.UNKNOWN_COLUMN, `The primary key "${column.name}" cannot be changed.`);
      }
    });
    const access = this.access.to(resource);
    const recordUnchanged = this.options.recordUnchanged;
    if (!access.can('UPDATE')) {
      await this.refuseUnreadable(level, sent, key);
      const refuse = (): Error => forbidden(resource, 'UPDATE');
      return this.tx.update(resource, key, {}, checksum, { readOnly: true, fixed: { ...sent, ...filled }, refuse, recordUnchanged });
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
    return this.tx.update(resource, key, changes, checksum, { fixed, refuse: (columns) => notWritable(level, columns), recordUnchanged });
  }

  /** The one row the caller may read whose columns equal the values given; 0 or several: 400 / 4000. Changes nothing. */
  private async lookup(level: WriteLevel, criteria: CanonicalRow): Promise<CanonicalRow> {
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
    if (found.length > 1) throw new ApiError(ErrorCode.BAD_REQUEST, `LOOKUP of ${level.path} found more than one row matching ${shown}.`);
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
