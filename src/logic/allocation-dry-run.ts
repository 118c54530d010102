import { Decimal } from 'decimal.js';
import type { Resource } from '../data/resource-registry.js';
import type { CanonicalRow, CanonicalValue } from '../data/value-codec.js';
import type { AllocateRule } from './rule-dsl-rows.js';
import type { RuleRow } from './rule-row.js';
import { toRuleRow } from './rule-values.js';

const SAMPLE: Record<string, CanonicalValue> = {
  string: '1',
  integer: 1,
  decimal: '1',
  boolean: true,
  date: '2000-01-01',
  datetime: '2000-01-01T00:00:00.000Z',
  json: '[1]',
};

/** Names JavaScript and decimal.js look up on any object: not attribute reads. */
const OBJECT_PROTOCOL = new Set([...Object.getOwnPropertyNames(Object.prototype), 'then', 'toJSON', 'toStringTag']);

/** A sample row of the resource that records reads of names it has no column for. */
function sample(resource: Resource, unknown: Set<string>): RuleRow {
  const row: CanonicalRow = {};
  for (const column of resource.columns) row[column.name] = SAMPLE[column.kind] ?? null;
  const columns = new Set(resource.columns.map((c) => c.name));
  return new Proxy(toRuleRow(resource, row), {
    get(target, key, receiver) {
      if (typeof key === 'string' && !columns.has(key) && !OBJECT_PROTOCOL.has(key)) unknown.add(`${resource.name}.${key}`);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

/**
 * Runs an allocation's code on sample rows at boot (as formulas are, see `formula-dry-run.ts`):
 * `recipients.where` must name only attributes of the recipient, and `where`, `amount.compute`
 * and `while` read only attributes the provider and the recipient have (what the compiler
 * cannot see: `any`, JavaScript). Exceptions on the sample values are ignored.
 */
export function allocationDryRun(rule: AllocateRule, provider: Resource, recipient: Resource): string[] {
  const problems: string[] = [];
  const unknown = new Set<string>();
  const quietly = (run: () => unknown): unknown => {
    try {
      const result = run();
      if (result instanceof Promise) result.catch(() => undefined);
      return result;
    } catch {
      return undefined;
    }
  };
  const where = quietly(() => rule.recipients.where(sample(provider, unknown)));
  if (where !== undefined && (where === null || typeof where !== 'object'))
    problems.push('recipients.where must return an object of attribute values');
  for (const name of Object.keys((where as object | undefined) ?? {})) {
    if (!recipient.columnsByName.has(name)) problems.push(`recipients.where names "${name}", which ${recipient.name} does not have`);
  }
  quietly(() => rule.amount.compute(new Decimal(1), sample(recipient, unknown), sample(provider, unknown)));
  if (rule.while) quietly(() => rule.while!(sample(provider, unknown)));
  for (const name of unknown) problems.push(`reads ${name}, which is not an attribute`);
  return problems;
}
