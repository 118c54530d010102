import type { EntityClass, RuleRow } from '../rule-row.js';
import type { RuleActions, RuleReads, UntypedRuleQuery } from '../rule-actions.js';
import { toRuleRow } from '../rule-values.js';
import type { RuleContext } from './rule-context.js';

/** The actions of rule code running `depth` writes deep in `tx`. */
export function ruleActions(tx: RuleContext, depth: number): RuleActions {
  const view = <E>(entity: EntityClass<E>, row: Parameters<typeof toRuleRow>[1]): RuleRow<E> => toRuleRow<E>(tx.resourceFor(entity), row);
  return {
    insert: async (entity, values) => view(entity, await tx.insertFor(entity, values, depth)),
    update: async (entity, key, changes) => view(entity, await tx.updateFor(entity, key, changes, depth)),
    delete: async (entity, key) => tx.deleteFor(entity, key, depth),
    read: async (entity, key, options) => {
      const row = await tx.readFor(entity, key, options?.lock === true);
      return row ? view(entity, row) : null;
    },
    query: async (entity, query = {}) => (await tx.queryFor(entity, query as UntypedRuleQuery, depth)).map((row) => view(entity, row)),
  };
}

/** Reading only (see `RuleReads`). */
export function ruleReads(tx: RuleContext): RuleReads {
  const actions = ruleActions(tx, 0);
  return { read: (entity, key, options) => actions.read(entity, key, options), query: (entity, query) => actions.query(entity, query) };
}
