import type { ChildRelation, ParentRelation, Resource } from '../../data/resource-registry.js';

/**
 * The role names of a relation, as LAC's `@metadata.links` and `@tables` name them: towards the parent, the
 * child's many-to-one property (`customer`); towards the children, the child table (`purchaseorder`), with
 * the relation appended (`purchaseorder_salesrep`) when the child points at this table more than once.
 */
export function parentRole(relation: ParentRelation): string {
  return relation.name;
}

export function childRole(resource: Resource, relation: ChildRelation): string {
  const twins = resource.children.filter((c) => c.child === relation.child).length;
  return twins > 1 ? `${relation.child}_${relation.via}` : relation.name;
}
