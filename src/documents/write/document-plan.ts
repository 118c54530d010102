import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import { isRowKey } from '../../data/primary-key.js';
import type { ResourceColumn } from '../../data/resource-registry.js';
import { fromRequest, type CanonicalRow, type CanonicalValue } from '../../data/value-codec.js';
import { MAX_OBJECTS_PER_REQUEST, metadataOf, type ObjectMetadata } from './document-body.js';
import type { MixedLevels } from './mixed-levels.js';
import { writeActionOf, type WriteAction } from './write-action.js';
import type { WriteLevel } from './write-level.js';

const METADATA = '@metadata';

/** One object of a body, checked and canonical, before any statement runs. */
export interface PlannedObject {
  level: WriteLevel;
  action: WriteAction;
  metadata: ObjectMetadata;
  /**
   * The columns the object is found by when it is not by its primary key's values or its href:
   * its `@metadata.key`, else its level's declared key (when it has no href). Always the primary
   * key or a unique key of the table.
   */
  key?: readonly string[];
  /** Column → canonical value, for the attributes sent (aliases mapped to columns). */
  sent: CanonicalRow;
  children: Array<{ link: WriteLevel['children'][number]; objects: PlannedObject[] }>;
  parents: Array<{ link: WriteLevel['parents'][number]; object: PlannedObject }>;
}

/**
 * Checks a body against its levels: unknown attributes are 400 / 4003 named all at once per object; values are made canonical (400 / 4000 naming the column); each
 * object's action is read (an unknown one is 400 / 4000). Arrays of children must hold objects;
 * a GET's `next_batch` marker (an object with only `@metadata.next_batch`) and an attribute a
 * GET replaced by its link (`inlinelimit`) are skipped, so a document read can be sent back whole. At most MAX_OBJECTS_PER_REQUEST objects in all.
 */
export class DocumentPlanner {
  private count = 0;

  constructor(private readonly defaultAction: WriteAction) {}

  /**
   * `mixed` (LAC's "Mix and Match"): a top-level object naming another resource (`MixedLevels`)
   * is planned on that resource's level. Without `level` (the API root) every object must name one.
   */
  plan(level: WriteLevel | undefined, items: ReadonlyArray<Record<string, unknown>>, mixed?: MixedLevels): PlannedObject[] {
    return items
      .filter((item) => !isNextBatch(item))
      .map((item) => {
        const own = mixed?.levelOf(item, level) ?? level;
        if (!own) {
          throw new ApiError(
            ErrorCode.BAD_REQUEST,
            'Each object sent to the API root must name its resource: @metadata.entity, or a full @metadata.href.',
          );
        }
        return this.object(own, item);
      });
  }

  private object(level: WriteLevel, item: Record<string, unknown>): PlannedObject {
    if (++this.count > MAX_OBJECTS_PER_REQUEST) {
      throw new ApiError(ErrorCode.BAD_REQUEST, `At most ${MAX_OBJECTS_PER_REQUEST} objects may be sent in one request.`);
    }
    const metadata = metadataOf(item);
    const action = writeActionOf(metadata.action, this.defaultAction);
    const key = keyColumnsOf(level, metadata);
    const planned: PlannedObject = { level, action, metadata, key, sent: {}, children: [], parents: [] };
    const refused: string[] = [];
    for (const [name, value] of Object.entries(item)) {
      if (name === METADATA) continue;
      const child = level.children.find((c) => c.name === name);
      if (child) {
        planned.children.push({ link: child, objects: this.plan(child.level, arrayOfObjects(name, value)) });
        continue;
      }
      const parent = level.parents.find((p) => p.name === name);
      if (parent) {
        if (value === null) continue;
        planned.parents.push({ link: parent, object: this.object(parent.level, anObject(name, value)) });
        continue;
      }
      // A long value a GET left out (inlinelimit) comes back as its link, a function sub-resource as it was read: nothing to write.
      if (isInlineLink(value) || level.computed.has(name)) continue;
      const columnName = level.attributes.get(name);
      if (columnName === undefined) {
        refused.push(name);
        continue;
      }
      const column = level.resource.columnsByName.get(columnName)!;
      planned.sent[columnName] = canonicalOf(column, value);
    }
    if (refused.length > 0) {
      throw new ApiError(
        ErrorCode.UNKNOWN_COLUMN,
        `Not a writable column of ${level.path}: ${refused.map((n) => `"${n.slice(0, 64)}"`).join(', ')}.`,
      );
    }
    return planned;
  }
}

/**
 * LAC: an object is found by "the @metadata key if provided, else the resource's defined key,
 * else the primary key" (an href, when sent, names the row before a defined key). Key names are
 * the level's attribute names; the key must be the table's primary key or one of its unique
 * keys: 400 / 4000 naming it otherwise.
 */
function keyColumnsOf(level: WriteLevel, metadata: ObjectMetadata): readonly string[] | undefined {
  if (metadata.key === undefined) return metadata.href === undefined ? level.key : undefined;
  const shown = metadata.key.map((name) => `"${name.slice(0, 64)}"`).join(', ');
  const unknown = metadata.key.filter((name) => !level.attributes.has(name));
  if (unknown.length > 0) {
    throw new ApiError(
      ErrorCode.BAD_REQUEST,
      `@metadata.key of ${level.path} names ${unknown.map((name) => `"${name.slice(0, 64)}"`).join(', ')}: not an attribute of ${level.path}.`,
    );
  }
  const columns = metadata.key.map((name) => level.attributes.get(name)!);
  if (!isRowKey(level.resource, columns)) {
    throw new ApiError(
      ErrorCode.BAD_REQUEST,
      `@metadata.key of ${level.path} (${shown}) is neither the primary key nor a unique key of ${level.resource.name}.`,
    );
  }
  return columns;
}

/** A request value made canonical; a boolean may also come as 1 or 0 (as some clients write them). */
function canonicalOf(column: ResourceColumn, value: unknown): CanonicalValue {
  if (column.kind === 'boolean' && (value === 1 || value === 0)) return value === 1;
  return fromRequest(column, value);
}

function isInlineLink(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const metadata = (value as Record<string, unknown>)[METADATA];
  return Object.keys(value).length === 1 && typeof metadata === 'object' && metadata !== null && 'href' in metadata;
}

function isNextBatch(item: Record<string, unknown>): boolean {
  const metadata = item[METADATA];
  return Object.keys(item).length === 1 && typeof metadata === 'object' && metadata !== null && 'next_batch' in metadata;
}

function arrayOfObjects(name: string, value: unknown): Array<Record<string, unknown>> {
  if (!Array.isArray(value) || value.some((v) => v === null || typeof v !== 'object' || Array.isArray(v))) {
    throw new ApiError(ErrorCode.BAD_REQUEST, `"${name}" must be an array of objects.`);
  }
  return value as Array<Record<string, unknown>>;
}

function anObject(name: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || Array.isArray(value)) throw new ApiError(ErrorCode.BAD_REQUEST, `"${name}" must be an object or null.`);
  return value as Record<string, unknown>;
}
