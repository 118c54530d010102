import { Decimal } from 'decimal.js';
import type { ParentRelation, Resource } from '../../data/resource-registry.js';
import type { CanonicalRow, CanonicalValue } from '../../data/value-codec.js';
import type { Aggregate } from '../rule-bank.js';
import { fromRuleValue, toRuleRow } from '../rule-values.js';
import type { RuleContext } from './rule-context.js';

/** What one child change means for one parent row: the changes to make to it, computed from its locked current values. */
export interface ParentAdjustment {
  parent: Resource;
  relation: ParentRelation;
  /** The parent's key values, in the relation's column order. */
  key: CanonicalValue[];
  /** The aggregates this adjustment maintains. */
  aggregates: Aggregate[];
  apply(parentRow: CanonicalRow, tx: RuleContext): Promise<CanonicalRow>;
}

interface Contribution {
  key: CanonicalValue[];
  value: Decimal | null;
}

/** The child's part in an aggregate: which parent, and what it adds; undefined when it takes no part. */
function contribution(aggregate: Aggregate, row: CanonicalRow | null): Contribution | undefined {
  if (!row) return undefined;
  const key = aggregate.relation.columns.map((pair) => row[pair.child] ?? null);
  if (key.some((v) => v === null)) return undefined;
  if (aggregate.rule.where && !aggregate.rule.where(toRuleRow(aggregate.child, row))) return undefined;
  if (aggregate.rule.kind === 'count') return { key, value: new Decimal(1) };
  const raw = row[aggregate.childAttr!.name] ?? null;
  return { key, value: raw === null ? null : new Decimal(raw as string | number) };
}

const sameKey = (a: CanonicalValue[], b: CanonicalValue[]): boolean => a.length === b.length && a.every((v, i) => v === b[i]);

type Step = (current: CanonicalValue, parentRow: CanonicalRow, tx: RuleContext) => Promise<CanonicalValue>;

/**
 * The parent adjustments one child change calls for: old parent minus the old contribution,
 * new parent plus the new one (one parent and the difference when neither the parent nor the
 * qualification changed). Sum and count move by delta; min and max compare, and read the
 * children again only when the current extreme leaves. Steps for the same parent are merged,
 * so each parent gets one UPDATE.
 */
export function adjustments(feeds: readonly Aggregate[], before: CanonicalRow | null, after: CanonicalRow | null): ParentAdjustment[] {
  const byParent = new Map<
    string,
    { parent: Resource; relation: ParentRelation; key: CanonicalValue[]; steps: Array<[Aggregate, Step]> }
  >();
  const add = (aggregate: Aggregate, key: CanonicalValue[], step: Step): void => {
    const id = `${aggregate.parent.name}\u0000${aggregate.relation.name}\u0000${key.join('\u0000')}`;
    let entry = byParent.get(id);
    if (!entry) {
      entry = { parent: aggregate.parent, relation: aggregate.relation, key, steps: [] };
      byParent.set(id, entry);
    }
    entry.steps.push([aggregate, step]);
  };

  for (const aggregate of feeds) {
    const old = contribution(aggregate, before);
    const now = contribution(aggregate, after);
    if (!old && !now) continue;
    if (aggregate.rule.kind === 'sum' || aggregate.rule.kind === 'count') {
      if (old && now && sameKey(old.key, now.key)) {
        const delta = (now.value ?? new Decimal(0)).minus(old.value ?? 0);
        if (!delta.isZero()) add(aggregate, now.key, plus(aggregate, delta));
        continue;
      }
      if (old && old.value && !old.value.isZero()) add(aggregate, old.key, plus(aggregate, old.value.negated()));
      if (now && now.value && !now.value.isZero()) add(aggregate, now.key, plus(aggregate, now.value));
      continue;
    }
    if (old && now && sameKey(old.key, now.key) && old.value?.equals(now.value ?? NaN)) continue;
    if (old && (!now || !sameKey(old.key, now.key))) add(aggregate, old.key, extremeLeaves(aggregate, old.value));
    if (now)
      add(
        aggregate,
        now.key,
        old && sameKey(old.key, now.key) ? extremeMoves(aggregate, old.value, now.value) : extremeArrives(aggregate, now.value),
      );
  }

  return [...byParent.values()].map((entry) => ({
    parent: entry.parent,
    relation: entry.relation,
    key: entry.key,
    aggregates: entry.steps.map(([aggregate]) => aggregate),
    async apply(parentRow, tx) {
      const changes: CanonicalRow = {};
      for (const [aggregate, step] of entry.steps) {
        const name = aggregate.attr.name;
        changes[name] = await step(name in changes ? changes[name]! : (parentRow[name] ?? null), parentRow, tx);
      }
      return changes;
    },
  }));
}

function plus(aggregate: Aggregate, delta: Decimal): Step {
  return async (current) => fromRuleValue(aggregate.attr, new Decimal((current as string | number | null) ?? 0).plus(delta));
}

const beats = (kind: 'min' | 'max', candidate: Decimal, current: Decimal): boolean =>
  kind === 'min' ? candidate.lt(current) : candidate.gt(current);

function extremeArrives(aggregate: Aggregate, value: Decimal | null): Step {
  const kind = aggregate.rule.kind as 'min' | 'max';
  return async (current) => {
    if (value === null) return current;
    if (current === null || beats(kind, value, new Decimal(current as string | number))) return fromRuleValue(aggregate.attr, value);
    return current;
  };
}

function extremeLeaves(aggregate: Aggregate, value: Decimal | null): Step {
  return async (current, parentRow, tx) => {
    if (value === null || current === null || !value.equals(current as string | number)) return current;
    return recompute(aggregate, parentRow, tx);
  };
}

function extremeMoves(aggregate: Aggregate, from: Decimal | null, to: Decimal | null): Step {
  const leave = extremeLeaves(aggregate, from);
  const arrive = extremeArrives(aggregate, to);
  return async (current, parentRow, tx) => {
    const wasExtreme = from !== null && current !== null && from.equals(current as string | number);
    return wasExtreme ? recompute(aggregate, parentRow, tx) : arrive(await leave(current, parentRow, tx), parentRow, tx);
  };
}

/** The one case that reads the children: the current minimum or maximum left. */
async function recompute(aggregate: Aggregate, parentRow: CanonicalRow, tx: RuleContext): Promise<CanonicalValue> {
  const kind = aggregate.rule.kind as 'min' | 'max';
  let best: Decimal | null = null;
  for (const child of await tx.store.findChildren(aggregate.child, aggregate.relation, parentRow, false)) {
    const c = contribution(aggregate, child);
    if (c?.value && (best === null || beats(kind, c.value, best))) best = c.value;
  }
  return best === null ? null : fromRuleValue(aggregate.attr, best);
}
