import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { demoCustomers } from '../src/demo/seed/demo-data.js';
import { suiteAppAs, type Api } from './support/api.js';
import { demoRuleViolations } from './support/demo-invariants.js';
import { describeEachTarget, type TestApp } from './support/test-app.js';

/** One random step; indexes pick among the rows that exist when the step runs. */
type Step =
  | { op: 'newOrder'; customer: number; paid: boolean }
  | { op: 'newItem'; order: number; product: number; qty: number }
  | { op: 'qty'; item: number; qty: number }
  | { op: 'product'; item: number; product: number }
  | { op: 'moveItem'; item: number; order: number }
  | { op: 'pay'; order: number; paid: boolean }
  | { op: 'reparent'; order: number; customer: number }
  | { op: 'deleteItem'; item: number }
  | { op: 'deleteOrder'; order: number }
  | { op: 'limit'; customer: number; percent: number };

const index = fc.nat({ max: 1000 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('newOrder' as const), customer: index, paid: fc.boolean() }),
  fc.record({
    op: fc.constant('newItem' as const),
    order: index,
    product: fc.integer({ min: 1, max: 10 }),
    qty: fc.integer({ min: 1, max: 5 }),
  }),
  fc.record({
    op: fc.constant('newItem' as const),
    order: index,
    product: fc.integer({ min: 1, max: 10 }),
    qty: fc.integer({ min: 1, max: 5 }),
  }),
  fc.record({ op: fc.constant('qty' as const), item: index, qty: fc.integer({ min: 1, max: 9 }) }),
  fc.record({ op: fc.constant('product' as const), item: index, product: fc.integer({ min: 1, max: 10 }) }),
  fc.record({ op: fc.constant('moveItem' as const), item: index, order: index }),
  fc.record({ op: fc.constant('pay' as const), order: index, paid: fc.boolean() }),
  fc.record({ op: fc.constant('reparent' as const), order: index, customer: index }),
  fc.record({ op: fc.constant('deleteItem' as const), item: index }),
  fc.record({ op: fc.constant('deleteOrder' as const), order: index }),
  fc.record({ op: fc.constant('limit' as const), customer: index, percent: fc.integer({ min: 30, max: 160 }) }),
);

describeEachTarget('logic engine: random sequences keep every aggregate right', (target) => {
  let t: TestApp;
  let api: Api;

  suiteAppAs(target, 'demo', (app, client) => {
    t = app;
    api = client;
  });

  async function ids(resource: string, key: string): Promise<number[]> {
    const res = await api.get(`/${resource}?pagesize=5000`).expect(200);
    return (res.body as Array<Record<string, number>>).filter((r) => key in r).map((r) => r[key]!);
  }

  async function run(s: Step): Promise<number> {
    const pick = <T>(list: T[], i: number): T | undefined => (list.length === 0 ? undefined : list[i % list.length]);
    const customer = (i: number): string => demoCustomers[i % demoCustomers.length]!.name;
    const orders = await ids('purchaseorder', 'order_number');
    const items = await ids('lineitem', 'lineitem_id');
    const override = { '@metadata': { checksum: 'override' } };
    switch (s.op) {
      case 'newOrder':
        return (await api.post('/purchaseorder', { customer_name: customer(s.customer), paid: s.paid })).status;
      case 'newItem': {
        const order = pick(orders, s.order);
        if (order === undefined) return 0;
        return (await api.post('/lineitem', { order_number: order, product_number: s.product, qty_ordered: s.qty })).status;
      }
      case 'qty':
      case 'product':
      case 'moveItem': {
        const item = pick(items, s.item);
        if (item === undefined) return 0;
        const body =
          s.op === 'qty'
            ? { qty_ordered: s.qty }
            : s.op === 'product'
              ? { product_number: s.product }
              : { order_number: pick(orders, s.order) };
        return (await api.put(`/lineitem/${item}`, { ...override, ...body })).status;
      }
      case 'pay':
      case 'reparent': {
        const order = pick(orders, s.order);
        if (order === undefined) return 0;
        const body = s.op === 'pay' ? { paid: s.paid } : { customer_name: customer(s.customer) };
        return (await api.put(`/purchaseorder/${order}`, { ...override, ...body })).status;
      }
      case 'deleteItem': {
        const item = pick(items, s.item);
        return item === undefined ? 0 : (await api.delete(`/lineitem/${item}?checksum=override`)).status;
      }
      case 'deleteOrder': {
        const order = pick(orders, s.order);
        return order === undefined ? 0 : (await api.delete(`/purchaseorder/${order}?checksum=override`)).status;
      }
      case 'limit':
        return changeLimit(customer(s.customer), s.percent);
    }
  }

  /**
   * Sets a customer's credit limit to `percent` of what it is, and checks the answer against the
   * model of the demo's two customer constraints: the balance may not exceed the limit, and a
   * customer who owes may not lose more than half of it at once (the rule with `old`).
   */
  async function changeLimit(name: string, percent: number): Promise<number> {
    const path = `/customer/${encodeURIComponent(name)}`;
    const read = async () => ((await api.get(path).expect(200)).body as Array<Record<string, number>>)[0]!;
    const before = await read();
    const balance = new Decimal(String(before.balance));
    const old = new Decimal(String(before.credit_limit));
    const limit = old.times(percent).div(100).toDecimalPlaces(2);
    const overBalance = balance.gt(limit);
    const cutTooFar = !balance.isZero() && limit.lt(old.div(2));
    const res = await api.put(path, { '@metadata': { checksum: 'override' }, credit_limit: limit.toString() });
    expect({ percent, status: res.status }).toEqual({ percent, status: overBalance || cutTooFar ? 422 : 200 });
    if (res.status === 422 && !overBalance) expect(res.body.errorMessage).toContain('may not be cut by more than half');
    expect(new Decimal(String((await read()).credit_limit)).equals(res.status === 200 ? limit : old)).toBe(true);
    return res.status;
  }

  it('after any sequence of inserts, updates, re-parentings and deletes, every aggregate equals its recomputation', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 25 }), async (steps) => {
        for (const s of steps) {
          const status = await run(s);
          // 422: a credit limit (or a cut of one) refused the change (and rolled it back); 0: nothing to act on.
          expect([0, 200, 201, 422]).toContain(status);
        }
        expect(await demoRuleViolations(t.dataSource)).toEqual([]);
      }),
      { numRuns: 6 },
    );
  });
});
