import type { CanonicalRow } from '../../data/value-codec.js';
import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import type { PlannedObject } from './document-plan.js';
import type { WriteLevel } from './write-level.js';

type Relation = WriteLevel['children'][number]['relation'];
type Parented = { relation: Relation; row: CanonicalRow } | undefined;

/** One object's turn in a walk of the body (see `walkDocument`): what it is, and what its parents fill in. */
export type Step = (turn: {
  object: PlannedObject;
  filled: CanonicalRow;
  unknown: ReadonlySet<string>;
  keySegment?: string;
  ifMatch?: string;
}) => Promise<CanonicalRow | undefined>;

/**
 * Visits an object as it is written: its parent objects first (their rows fill its foreign
 * keys), then the object, then its children (their foreign keys filled from its row). A
 * column filled from a row that does not hold it yet (a key the database will generate) is
 * `unknown`. Answers the object's row, undefined when it is deleted.
 */
export async function walkDocument(
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
    const parentRow = await walkDocument(parentObject, undefined, step);
    if (!parentRow) throw new ApiError(ErrorCode.BAD_REQUEST, `The parent "${link.name}" of ${level.path} cannot be deleted here.`);
    fill(filled, unknown, link.relation, parentRow);
  }
  if (parent) fill(filled, unknown, parent.relation, parent.row);
  const row = await step({ object, filled, unknown, keySegment, ifMatch });
  if (!row) return undefined;
  for (const { link, objects } of object.children) {
    for (const child of objects) await walkDocument(child, { relation: link.relation, row }, step);
  }
  return row;
}

/** Fills the foreign key of `relation` from the row it points to; a column that row does not hold yet is unknown. */
function fill(filled: CanonicalRow, unknown: Set<string>, relation: Relation, row: CanonicalRow): void {
  for (const pair of relation.columns) {
    if (pair.parent in row) filled[pair.child] = row[pair.parent] ?? null;
    else unknown.add(pair.child);
  }
}

/** The values an object will be written with, as far as they are known: sent ones, overridden by filled ones. */
export function known(sent: CanonicalRow, filled: CanonicalRow, unknown: ReadonlySet<string>): CanonicalRow {
  const values = { ...sent, ...filled };
  if (unknown.size === 0) return values;
  return Object.fromEntries(Object.entries(values).filter(([name]) => !unknown.has(name)));
}
