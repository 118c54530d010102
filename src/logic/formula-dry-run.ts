import type { ColumnKind } from '../data/column-kind.js';
import type { Resource } from '../data/resource-registry.js';
import type { CanonicalRow, CanonicalValue } from '../data/value-codec.js';
import type { RuleRow } from './rule-dsl.js';
import { toRuleRow } from './rule-values.js';

/** Canonical sample values, made into rule rows as the engine makes them (decimals become `Decimal`s). */
const TYPICAL: Record<ColumnKind, CanonicalValue> = {
  string: '1',
  integer: 1,
  decimal: '1',
  boolean: true,
  date: '2000-01-01',
  datetime: '2000-01-01T00:00:00.000Z',
  json: '[1]',
  binary: 'AQ==',
};
const ZEROS: Record<ColumnKind, CanonicalValue> = {
  string: '',
  integer: 0,
  decimal: '0',
  boolean: false,
  date: '2000-01-01',
  datetime: '2000-01-01T00:00:00.000Z',
  json: '[]',
  binary: '',
};

/** Sample runs: values that take the usual branches, values that take the other ones, and a row of nulls without parents. */
const RUNS: Array<Record<ColumnKind, CanonicalValue> | null> = [TYPICAL, ZEROS, null];

/**
 * Names that JavaScript, `await`, `JSON.stringify` and decimal.js look up on any object they are
 * handed (`String(row)`, `D(row)`...): not attribute reads, unless the resource has such a column.
 */
const OBJECT_PROTOCOL = new Set([...Object.getOwnPropertyNames(Object.prototype), 'then', 'toJSON', 'toStringTag']);

function sampleRow(resource: Resource, values: Record<ColumnKind, CanonicalValue> | null): RuleRow {
  const row: CanonicalRow = {};
  for (const column of resource.columns) row[column.name] = values ? values[column.kind] : null;
  return toRuleRow(resource, row);
}

/** The row, recording the name of every attribute read of it (`prefix` + name). */
function recording(row: RuleRow, known: ReadonlySet<string>, prefix: string, reads: Set<string>): RuleRow {
  return new Proxy(row, {
    get(target, key, receiver) {
      if (typeof key === 'string' && (known.has(key) || !OBJECT_PROTOCOL.has(key))) reads.add(`${prefix}${key}`);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

/** What the dry run needs of a formula (`Formula` of the rule bank has it). */
export interface DryRunFormula {
  resource: Resource;
  ownUses: readonly string[];
  parentUses: ReadonlyArray<{ relation: { name: string }; parent: Resource; attr: string }>;
  rule: { compute: (row: RuleRow, old: RuleRow | null) => unknown };
}

/**
 * Runs the formula's `compute` on sample rows that record what it reads, without an old row
 * and with one (as on insert and on update), and returns what it read that its `uses` do not
 * list (`qty_ordered`, `purchaseorder.notes`, `product`, `old.notes`): each is an
 * input whose change would never recompute the formula. A `compute` that throws on a sample is
 * no problem in itself; what it read before throwing counts.
 */
export function undeclaredReads(formula: DryRunFormula): string[] {
  const { resource } = formula;
  const parentsUsed = new Map(formula.parentUses.map((use) => [use.relation.name, use.parent]));
  const parentAttrs = formula.parentUses.map((use) => `${use.relation.name}.${use.attr}`);
  const oldUses = formula.ownUses.map((name) => `old.${name}`);
  const allowed = new Set([...formula.ownUses, ...parentsUsed.keys(), ...parentAttrs, ...oldUses]);
  const columns = new Set(resource.columns.map((c) => c.name));
  const known = new Set([...columns, ...resource.parents.map((p) => p.name)]);
  const reads = new Set<string>();
  for (const values of RUNS) {
    const row = sampleRow(resource, values);
    for (const [relation, parent] of parentsUsed) {
      const parentColumns = new Set(parent.columns.map((c) => c.name));
      row[relation] = values ? recording(sampleRow(parent, values), parentColumns, `${relation}.`, reads) : null;
    }
    for (const old of [null, recording(sampleRow(resource, values), columns, 'old.', reads)]) {
      try {
        const result: unknown = formula.rule.compute(recording(row, known, '', reads), old);
        // A compute that returns a promise is wrong anyway (the engine stores values); its rejection must not go unhandled.
        if (result instanceof Promise) result.catch(() => undefined);
      } catch {
        // Sample values may be ones the formula never meets (a zero divisor, a null); only its reads matter here.
      }
    }
  }
  return [...reads].filter((name) => !allowed.has(name));
}
