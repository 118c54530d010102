import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import { isPrimaryKey, keyOf, parseKeySegment, type KeyValues } from '../../data/primary-key.js';
import type { Resource } from '../../data/resource-registry.js';
import { paramsFor } from '../../data/row-store.js';
import { sameValue, type CanonicalRow } from '../../data/value-codec.js';
import { CHECKSUM_OVERRIDE, type WriteTransaction } from '../../logic/write-transaction.js';
import type { CallerRowPolicy } from '../../security/caller-row-policy.js';
import type { ResourceAccess } from '../../security/resource-access.js';
import type { Operation } from '../../security/role-definition.js';
import { missingRequired } from './document-body.js';
import type { PlannedObject } from './document-plan.js';
import { known } from './document-walk.js';
import type { WriteLevel } from './write-level.js';

/** An update as the writer will send it to the engine (see `updatePlan`). */
export interface UpdatePlan {
  readOnly: boolean;
  changes: CanonicalRow;
  fixed: CanonicalRow;
  refuse: (columns: string[]) => Error;
}

/** Where an object's row is: its primary key's values, or the values of a unique key it is found by (see `locate`). */
export type KeyTarget = { key: KeyValues } | { criteria: CanonicalRow };

/**
 * What becomes of values a client sends for attributes rules derive (LAC's "Aggregate Default
 * Override", `ApiSettings.aggregateDefaultOverride`): 'ignore' (the option off, the default)
 * drops them, the rules' values stand; 'compare' (on) treats them as columns the caller may not
 * write: equal to the stored value or 400 / 4003.
 */
export type DerivedSent = 'ignore' | 'compare';

const NONE: ReadonlySet<string> = new Set();

/**
 * What an object of a body may do and what it means, asked the same way when it is admitted
 * and when it is written (see `DocumentAdmission`, `DocumentWriter`): its grant, its key, its
 * checksum, the values of an insert, the plan of an update, a LOOKUP's row. Each action needs
 * the caller's grant for it on the object's table (403 / 4030).
 */
export class ObjectChecks {
  constructor(
    private readonly tx: WriteTransaction,
    private readonly access: ResourceAccess,
    private readonly policy: CallerRowPolicy,
    private readonly derived: (resource: Resource) => ReadonlySet<string>,
    private readonly derivedSent: DerivedSent = 'compare',
  ) {}

  /** The values sent, less those of derived attributes when they are ignored (see `DerivedSent`). */
  private written(resource: Resource, sent: CanonicalRow): CanonicalRow {
    if (this.derivedSent === 'compare') return sent;
    const derived = this.derived(resource);
    if (!Object.keys(sent).some((name) => derived.has(name))) return sent;
    return Object.fromEntries(Object.entries(sent).filter(([name]) => !derived.has(name)));
  }

  /**
   * The values of an insert: sent ones, and foreign keys filled from a parent object (set by
   * the insert like values sent, so checked like them; `unknown` ones are filled later).
   */
  insertable(level: WriteLevel, given: CanonicalRow, filled: CanonicalRow, unknown: ReadonlySet<string> = NONE): CanonicalRow {
    const resource = level.resource;
    const sent = this.written(resource, given);
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

  /**
   * How an update treats what was sent. Values for columns the caller may not write (derived,
   * generated, the key, outside its grant's columns: a round trip of what it read) must equal
   * the stored ones, compared on the row the checksum check reads. Without any UPDATE grant on
   * the table the object must be unchanged altogether (403 otherwise); its checksum is checked
   * all the same.
   */
  async updatePlan(level: WriteLevel, given: CanonicalRow, filled: CanonicalRow, key: KeyValues): Promise<UpdatePlan> {
    const resource = level.resource;
    const sent = this.written(resource, given);
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
  async lookup(level: WriteLevel, criteria: CanonicalRow, onlyOne = true): Promise<CanonicalRow> {
    const names = Object.keys(criteria);
    if (names.length === 0) throw new ApiError(ErrorCode.BAD_REQUEST, `A LOOKUP of ${level.path} needs at least one attribute to match.`);
    const found = await this.match(level, criteria, 2);
    const shown = names.map((n) => aliasOf(level, n)).join(', ');
    if (found.length === 0) throw new ApiError(ErrorCode.BAD_REQUEST, `LOOKUP of ${level.path} found no row matching ${shown}.`);
    if (found.length > 1 && onlyOne)
      throw new ApiError(ErrorCode.BAD_REQUEST, `LOOKUP of ${level.path} found more than one row matching ${shown}.`);
    return found[0]!;
  }

  /**
   * Up to `limit` rows the caller may read whose columns equal the values given. Every column
   * compared must be one the caller may read (400 / 4003 otherwise), and one some rows hide
   * matches only in the rows that show it, so nothing about hidden values can be inferred.
   */
  private async match(level: WriteLevel, criteria: CanonicalRow, limit: number): Promise<CanonicalRow[]> {
    const resource = level.resource;
    this.require(resource, 'READ');
    await this.refuseUnreadable(level, criteria);
    const names = Object.keys(criteria);
    const store = this.tx.store;
    const params = paramsFor(store.dialect);
    const where = names.map((name) => {
      const value = criteria[name] ?? null;
      const column = `${store.q('t')}.${store.q(name)}`;
      return value === null ? `${column} IS NULL` : `${column} = ${store.compared(resource.columnsByName.get(name)!, value, params)}`;
    });
    where.push(...this.policy.lookupConditions(resource, names, params));
    return (await store.page(resource, { where, orderBy: [] }, params, limit, 0)).map((found) => found.row);
  }

  /**
   * How the object is found. The URL's key first; then, when the object has a key of its own
   * (`PlannedObject.key`: its `@metadata.key`, or its level's declared key), that key's values,
   * which it must hold (sent, or filled from its parent): 400 / 4000 naming the missing ones;
   * otherwise as `keyOf`. A unique key's values are left to `locate`.
   */
  target(object: PlannedObject, filled: CanonicalRow, keySegment: string | undefined, required: boolean): KeyTarget | undefined {
    const { level, sent, metadata } = object;
    if (keySegment !== undefined || object.key === undefined) {
      const key = this.keyOf(level, sent, filled, metadata.href, keySegment, required);
      return key && { key };
    }
    const values = { ...sent, ...filled };
    const criteria = this.keyCriteria(level, object.key, values);
    return isPrimaryKey(level.resource, object.key) ? { key: keyOf(level.resource, values) } : { criteria };
  }

  /** What a LOOKUP matches: only the values of the object's key when it has one (see `target`), else every value given. */
  lookupCriteria(object: PlannedObject, values: CanonicalRow, unknown: ReadonlySet<string> = NONE): CanonicalRow {
    return object.key === undefined ? values : this.keyCriteria(object.level, object.key, values, unknown);
  }

  /** The values of a key's columns; a column neither given nor `unknown` (filled later) is 400 / 4000. */
  private keyCriteria(
    level: WriteLevel,
    columns: readonly string[],
    values: CanonicalRow,
    unknown: ReadonlySet<string> = NONE,
  ): CanonicalRow {
    const missing = columns.filter((name) => !(name in values) && !unknown.has(name));
    if (missing.length > 0) {
      throw new ApiError(
        ErrorCode.BAD_REQUEST,
        `An object of ${level.path} found by its key needs the key's attribute(s): ${missing.map((n) => `"${aliasOf(level, n)}"`).join(', ')}.`,
      );
    }
    return Object.fromEntries(columns.filter((name) => name in values).map((name) => [name, values[name] ?? null]));
  }

  /**
   * The primary key of the row a target names: a unique key's values find it among the rows the
   * caller may read, by columns it may read (see `match`); undefined when none has them (a null
   * value matches no row: a unique key may hold several).
   */
  async locate(level: WriteLevel, target: KeyTarget): Promise<KeyValues | undefined> {
    if ('key' in target) return target.key;
    if (Object.values(target.criteria).some((value) => value === null)) return undefined;
    const [row] = await this.match(level, target.criteria, 1);
    return row && keyOf(level.resource, row);
  }

  /** As `locate`, for an object that must exist (UPDATE, DELETE): 404 / 4041 as for a missing primary key. */
  async located(level: WriteLevel, target: KeyTarget): Promise<KeyValues> {
    const key = await this.locate(level, target);
    if (!key) throw new ApiError(ErrorCode.OBJECT_NOT_FOUND, `No ${level.resource.name} with that key.`);
    return key;
  }

  /**
   * The key of the object: the URL's, its href's (the level's path or the table's plain or prefixed
   * name followed by the key), or its key columns (sent, or filled from its parent). Undefined when none is complete
   * and `required` is false.
   */
  keyOf(
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
      // A table's LAC name (`main:customer`) names it as well (hrefs LAC clients kept from LAC carry it).
      for (const name of new Set([level.path, resource.name, resource.prefixedName ?? resource.name])) {
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

  /** Values compared with stored ones must be of columns the caller may read in that row (see `CallerRowPolicy.unreadable`). */
  private async refuseUnreadable(level: WriteLevel, values: CanonicalRow, key?: KeyValues, change?: 'UPDATE'): Promise<void> {
    const unreadable = await this.policy.unreadable(this.tx.store, level.resource, Object.keys(values), key, change);
    if (unreadable.length > 0) throw notWritable(level, unreadable);
  }

  /** Whether a row with this key exists that the caller may know of (see `mayKnow`): a MERGE_INSERT then updates it. */
  async exists(resource: Resource, key: KeyValues): Promise<boolean> {
    return (await this.tx.store.findByKey(resource, key, false)) !== undefined && (await this.policy.mayKnow(this.tx.store, resource, key));
  }

  /** The object's checksum (or the If-Match one); none is 428 / 4280. */
  checksumOf(object: PlannedObject, ifMatch: string | undefined, verb: 'update' | 'delete'): string {
    const checksum = object.metadata.checksum ?? ifMatch;
    if (!checksum) {
      throw new ApiError(
        ErrorCode.CHECKSUM_REQUIRED,
        `A${verb === 'update' ? 'n update' : ' delete'} needs the object's current checksum in @metadata.checksum (or "${CHECKSUM_OVERRIDE}").`,
      );
    }
    return checksum;
  }

  require(resource: Resource, operation: Operation): void {
    if (!this.access.to(resource).can(operation)) throw forbidden(resource, operation);
  }

  /** Whether the caller may read these columns in every row it may read. */
  readable(resource: Resource, columns: readonly string[]): boolean {
    const access = this.access.to(resource);
    const readable = access.readable();
    return columns.every((name) => (readable === undefined || readable.has(name)) && !access.columnGrants(name, false));
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
