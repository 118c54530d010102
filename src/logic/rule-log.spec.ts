import type { Resource } from '../data/resource-registry.js';
import { RuleLog } from './rule-log.js';
import type { Rule } from './rule-dsl.js';

const customer = { name: 'customer', primaryKey: [{ name: 'name' }] } as unknown as Resource;
const sum = { kind: 'sum' } as unknown as Rule;
const constraint = { kind: 'constraint' } as unknown as Rule;
const names = new Map<Rule, string>([
  [sum, 'sum customer.balance'],
  [constraint, 'constraint customer #2'],
]);

describe('RuleLog', () => {
  const log = (): RuleLog => new RuleLog((rule) => ({ type: rule.kind, name: names.get(rule)! }));

  it('settles rules noted on a row object under its key once written, carried across a replaced object', () => {
    const rules = log();
    const first = { name: 'A' };
    const second = { name: 'A' };
    rules.note(first, sum);
    rules.carry(first, second);
    rules.settle(second, customer, ['A']);
    rules.record(customer, ['A'], constraint);
    rules.record(customer, ['A'], sum);
    expect(rules.of(customer, ['A']).map((f) => f.name)).toEqual(['sum customer.balance', 'constraint customer #2']);
    expect(rules.of(customer, ['B'])).toEqual([]);
  });

  it('keeps every firing in the order the rules ran, with what derivations did, once its row has a key', () => {
    const rules = log();
    const row = { name: 'A' };
    rules.record(customer, ['A'], sum, { old: '10.00', new: '15.00' });
    rules.note(row, constraint);
    rules.note({ name: 'never written' }, sum, { old: null, new: '1.00' });
    rules.settle(row, customer, ['A']);
    rules.record(customer, ['A'], sum, { old: '15.00', new: '12.00' });
    const shown = rules.all().map((f) => [f.rule.name, f.row?.key, f.change]);
    expect(shown).toEqual([
      ['sum customer.balance', ['A'], { old: '10.00', new: '15.00' }],
      ['constraint customer #2', ['A'], undefined],
      ['sum customer.balance', ['A'], { old: '15.00', new: '12.00' }],
    ]);
    // The rule summary names each rule once.
    expect(rules.of(customer, ['A']).map((f) => f.name)).toEqual(['sum customer.balance', 'constraint customer #2']);
  });

  it('forgets everything on clear (a retried attempt starts over)', () => {
    const rules = log();
    rules.record(customer, ['A'], sum);
    rules.clear();
    expect(rules.of(customer, ['A'])).toEqual([]);
    expect(rules.all()).toEqual([]);
  });
});
