import type { Resource } from '../../data/resource-registry.js';
import type { CanonicalRow } from '../../data/value-codec.js';
import type { Formula, ResourceRules } from '../rule-bank.js';
import type { RuleRow } from '../rule-dsl.js';
import { fromRuleValue, toRuleRow } from '../rule-values.js';
import { sameValue } from '../../data/value-codec.js';
import type { RuleContext } from './rule-context.js';

/**
 * Runs the row's formulas in dependency order: on insert all of them; on update those whose
 * inputs changed (own attributes, or the parent they read was re-parented) and the `forced` ones.
 * `compute` gets the row before the change (`before`, as locked) as `old`: null on insert.
 */
export async function applyFormulas(
  tx: RuleContext,
  resource: Resource,
  rules: ResourceRules,
  row: CanonicalRow,
  before: CanonicalRow | null,
  forced: ReadonlySet<string> = new Set(),
): Promise<void> {
  const parents = new Map<string, RuleRow | null>();
  const old = before ? toRuleRow(resource, before) : null;
  for (const formula of rules.formulas) {
    if (before !== null && !forced.has(formula.attr.name) && !inputsChanged(resource, formula, row, before)) continue;
    const view = toRuleRow(resource, row);
    for (const use of formula.parentUses) {
      if (!parents.has(use.relation.name)) {
        const parent = await tx.parentOf(use.relation, row);
        parents.set(use.relation.name, parent ? toRuleRow(use.parent, parent) : null);
      }
      view[use.relation.name] = parents.get(use.relation.name);
    }
    const was = row[formula.attr.name] ?? null;
    const value = fromRuleValue(formula.attr, formula.rule.compute(view, old));
    row[formula.attr.name] = value;
    tx.ruleFired?.(row, formula.rule, { old: was, new: value });
  }
}

function inputsChanged(resource: Resource, formula: Formula, row: CanonicalRow, before: CanonicalRow): boolean {
  for (const name of formula.ownUses) {
    if (!sameValue(resource.columnsByName.get(name)!.kind, row[name], before[name])) return true;
  }
  return formula.parentUses.some((use) => use.relation.columns.some((pair) => (row[pair.child] ?? null) !== (before[pair.child] ?? null)));
}
