/** What ordering needs of a formula: the attribute it derives and the own attributes it reads. */
export interface OrderedFormula {
  attr: { name: string };
  ownUses: readonly string[];
}

/**
 * Orders one resource's formulas so that each runs after the formulas whose attributes it
 * reads (declaration order otherwise); a cycle is an error that names its path
 * (`formula cycle: amount -> product_price -> amount`).
 */
export function orderFormulas<F extends OrderedFormula>(formulas: readonly F[]): F[] {
  const byAttr = new Map(formulas.map((f) => [f.attr.name, f]));
  const ordered: F[] = [];
  const state = new Map<F, 'visiting' | 'done'>();
  const visit = (formula: F, path: string[]): void => {
    if (state.get(formula) === 'done') return;
    if (state.get(formula) === 'visiting') {
      // The path from the first visit on; the cycle is its part from where this formula came in.
      const cycle = [...path.slice(path.indexOf(formula.attr.name)), formula.attr.name];
      throw new Error(`formula cycle: ${cycle.join(' -> ')}`);
    }
    state.set(formula, 'visiting');
    for (const use of formula.ownUses) {
      const dependency = byAttr.get(use);
      if (dependency) visit(dependency, [...path, formula.attr.name]);
    }
    state.set(formula, 'done');
    ordered.push(formula);
  };
  for (const formula of formulas) visit(formula, []);
  return ordered;
}
