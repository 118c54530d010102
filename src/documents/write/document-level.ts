import type { ParentRelation } from '../../data/resource-registry.js';
import type { ResourceLevel } from '../levels/custom-resource-registry.js';
import type { WriteLevel } from './write-level.js';

const levels = new WeakMap<ResourceLevel, WriteLevel>();

/**
 * A custom resource's level (and the levels below it) as the document writer walks it: aliases
 * mapped to columns, children with the relation whose foreign key their parent's row fills, and
 * parent objects with the relation whose foreign key of this level their row fills.
 */
export function documentLevel(level: ResourceLevel): WriteLevel {
  const known = levels.get(level);
  if (known) return known;
  const children: Array<WriteLevel['children'][number]> = [];
  const parents: Array<WriteLevel['parents'][number]> = [];
  const written: WriteLevel = {
    resource: level.table,
    path: level.path,
    attributes: new Map(level.attributes.map((a) => [a.name, a.column.name])),
    key: level.key,
    children,
    parents,
    computed: new Set(level.functionLevels.map((f) => f.name)),
    tableResource: level.tableResource === true,
  };
  levels.set(level, written);
  for (const sub of level.subLevels) {
    const link = sub.link!;
    if (sub.kind === 'child') {
      // ownerRow[owner] = childRow[level]: the child's column is filled from its owner's.
      const relation: ParentRelation = { ...link.relation, columns: link.columns.map((c) => ({ child: c.level, parent: c.owner })) };
      children.push({ name: sub.name, level: documentLevel(sub), relation });
    } else {
      // ownerRow[owner] = parentRow[level]: this level's foreign key is filled from the parent's row.
      const relation: ParentRelation = { ...link.relation, columns: link.columns.map((c) => ({ child: c.owner, parent: c.level })) };
      parents.push({ name: sub.name, level: documentLevel(sub), relation });
    }
  }
  return written;
}
