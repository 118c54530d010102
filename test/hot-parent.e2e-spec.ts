import { Decimal } from 'decimal.js';
import { suiteAppAs, oneRow, type Api } from './support/api.js';
import { demoRuleViolations } from './support/demo-invariants.js';
import { describeEachTarget, type TestApp } from './support/test-app.js';

type Row = Record<string, unknown> & { '@metadata': { href: string; checksum?: string; resource?: string; verb?: string } };

/**
 * Many writes at once that all adjust the same parent rows (an order's total, a customer's
 * balance). Each must get through, however the database schedules them, and every aggregate
 * must come out exact: a lost update or a refused write is a failure.
 */
describeEachTarget('hot parents: concurrent writes into one order or one customer', (target) => {
  let t: TestApp;
  let api: Api;

  suiteAppAs(target, 'demo', (app, client) => {
    t = app;
    api = client;
  });

  const one = (path: string): Promise<Row> => oneRow<Row>(api, path);

  async function newOrder(customer: string): Promise<number> {
    const res = await api.post('/purchaseorder', { customer_name: customer, paid: false }).expect(201);
    return res.body.txsummary.find((r: Row) => r['@metadata'].resource === 'purchaseorder').order_number as number;
  }

  async function newItem(order: number, product: number, qty: number): Promise<number> {
    const res = await api.post('/lineitem', { order_number: order, product_number: product, qty_ordered: qty }).expect(201);
    return res.body.txsummary.find((r: Row) => r['@metadata'].resource === 'lineitem').lineitem_id as number;
  }

  const balanceOf = async (customer: string): Promise<Decimal> =>
    new Decimal((await one(`/customer/${encodeURIComponent(customer)}`)).balance as number);
  const totalOf = async (order: number): Promise<Decimal> => new Decimal((await one(`/purchaseorder/${order}`)).amount_total as number);

  /** Statuses that are not the expected one, with their bodies: an empty list is a pass and a failure says why. */
  const unexpected = (results: Array<{ status: number; body: unknown }>, status: number): unknown[] =>
    results.filter((r) => r.status !== status).map((r) => ({ status: r.status, body: r.body }));

  it('takes 12 concurrent line-item inserts into one order: all 201, exact total and balance', async () => {
    const customer = 'Sierra Steel';
    const order = await newOrder(customer);
    const balanceBefore = await balanceOf(customer);
    // Hammer (10.00) and Shovel (25.00), 1 to 3 of each: 12 different amounts.
    const bodies = Array.from({ length: 12 }, (_, i) => ({ order_number: order, product_number: 1 + (i % 2), qty_ordered: 1 + (i % 3) }));
    const results = await Promise.all(bodies.map((body) => api.post('/lineitem', body)));
    expect(unexpected(results, 201)).toEqual([]);
    const expected = bodies.reduce(
      (sum, b) => sum.plus(new Decimal(b.product_number === 1 ? 10 : 25).times(b.qty_ordered)),
      new Decimal(0),
    );
    expect((await totalOf(order)).toString()).toBe(expected.toString());
    expect((await balanceOf(customer)).toString()).toBe(balanceBefore.plus(expected).toString());
    const items = await api.get(`/lineitem?sysfilter=${encodeURIComponent(`equal(order_number:${order})`)}&pagesize=100`).expect(200);
    expect(items.body).toHaveLength(12);
    expect(await demoRuleViolations(t.dataSource)).toEqual([]);
  });

  it('takes concurrent inserts into different orders of one customer: all 201, exact balance', async () => {
    const customer = 'Tango Tiles';
    const orders: number[] = [];
    for (let i = 0; i < 4; i++) orders.push(await newOrder(customer));
    const balanceBefore = await balanceOf(customer);
    const bodies = Array.from({ length: 12 }, (_, i) => ({
      order_number: orders[i % orders.length]!,
      product_number: 5,
      qty_ordered: 1 + (i % 4),
    }));
    const results = await Promise.all(bodies.map((body) => api.post('/lineitem', body)));
    expect(unexpected(results, 201)).toEqual([]);
    const added = bodies.reduce((sum, b) => sum.plus(new Decimal('12.75').times(b.qty_ordered)), new Decimal(0));
    expect((await balanceOf(customer)).toString()).toBe(balanceBefore.plus(added).toString());
    for (const order of orders) {
      const ofOrder = bodies
        .filter((b) => b.order_number === order)
        .reduce((sum, b) => sum.plus(new Decimal('12.75').times(b.qty_ordered)), new Decimal(0));
      expect((await totalOf(order)).toString()).toBe(ofOrder.toString());
    }
    expect(await demoRuleViolations(t.dataSource)).toEqual([]);
  });

  it('keeps every aggregate exact under inserts, quantity changes, deletes and moves between two orders at once', async () => {
    // Two orders of two customers, so moves shift amounts between both orders and both balances.
    const a = await newOrder('Uniform Utilities');
    const b = await newOrder('Victor Ventures');
    const inA: number[] = [];
    const inB: number[] = [];
    for (let i = 0; i < 7; i++) {
      inA.push(await newItem(a, 1 + (i % 3), 1));
      inB.push(await newItem(b, 1 + (i % 3), 1));
    }
    const override = { '@metadata': { checksum: 'override' } };
    const writes = [
      api.post('/lineitem', { order_number: a, product_number: 2, qty_ordered: 2 }),
      api.post('/lineitem', { order_number: b, product_number: 4, qty_ordered: 1 }),
      api.post('/lineitem', { order_number: a, product_number: 1, qty_ordered: 3 }),
      api.post('/lineitem', { order_number: b, product_number: 1, qty_ordered: 2 }),
      api.put(`/lineitem/${inA[0]}`, { ...override, qty_ordered: 4 }),
      api.put(`/lineitem/${inB[0]}`, { ...override, qty_ordered: 3 }),
      api.put(`/lineitem/${inA[1]}`, { ...override, qty_ordered: 2 }),
      api.delete(`/lineitem/${inA[2]}?checksum=override`),
      api.delete(`/lineitem/${inB[1]}?checksum=override`),
      api.delete(`/lineitem/${inB[2]}?checksum=override`),
      api.put(`/lineitem/${inA[3]}`, { ...override, order_number: b }),
      api.put(`/lineitem/${inA[4]}`, { ...override, order_number: b, qty_ordered: 5 }),
      api.put(`/lineitem/${inB[3]}`, { ...override, order_number: a }),
      api.put(`/lineitem/${inB[4]}`, { ...override, order_number: a }),
      api.put(`/lineitem/${inB[5]}`, { ...override, order_number: a, product_number: 7 }),
    ];
    const results = await Promise.all(writes);
    const expectedStatus = [201, 201, 201, 201, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200];
    expect(results.map((r, i) => (r.status === expectedStatus[i] ? 'ok' : { status: r.status, body: r.body }))).toEqual(
      expectedStatus.map(() => 'ok'),
    );
    const count = async (order: number): Promise<number> =>
      (await api.get(`/lineitem?sysfilter=${encodeURIComponent(`equal(order_number:${order})`)}&pagesize=100`).expect(200)).body.length;
    // a: 7 + 2 inserted - 1 deleted - 2 moved out + 3 moved in; b: 7 + 2 - 2 - 3 + 2.
    expect(await count(a)).toBe(9);
    expect(await count(b)).toBe(6);
    expect(await demoRuleViolations(t.dataSource)).toEqual([]);
  });

  it('keeps balances exact while an order moves to another customer during inserts into it', async () => {
    const from = 'Xray Exteriors';
    const to = 'Yankee Yards';
    const moving = await newOrder(from);
    const stays = await newOrder(to);
    const override = { '@metadata': { checksum: 'override' } };
    const writes = [
      ...Array.from({ length: 6 }, (_, i) => api.post('/lineitem', { order_number: moving, product_number: 1, qty_ordered: 1 + (i % 2) })),
      api.put(`/purchaseorder/${moving}`, { ...override, customer_name: to }),
      ...Array.from({ length: 4 }, () => api.post('/lineitem', { order_number: stays, product_number: 2, qty_ordered: 1 })),
    ];
    const results = await Promise.all(writes);
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201, 200, 201, 201, 201, 201]);
    expect((await one(`/purchaseorder/${moving}`)).customer_name).toBe(to);
    expect((await totalOf(moving)).toString()).toBe('90');
    expect(await demoRuleViolations(t.dataSource)).toEqual([]);
  });

  it('takes concurrent multi-item posts that touch the same orders in opposite orders', async () => {
    const a = await newOrder('Zulu Zinc');
    const b = await newOrder('Acme Anchors');
    const item = (order: number) => ({ order_number: order, product_number: 6, qty_ordered: 1 });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api.post('/lineitem', i % 2 === 0 ? [item(a), item(b)] : [item(b), item(a)])),
    );
    expect(unexpected(results, 201)).toEqual([]);
    expect((await totalOf(a)).toString()).toBe('66');
    expect((await totalOf(b)).toString()).toBe('66');
    expect(await demoRuleViolations(t.dataSource)).toEqual([]);
  });

  it('takes concurrent multi-item updates that touch the same orders in opposite orders', async () => {
    const a = await newOrder('Beta Bricks');
    const b = await newOrder('Gamma Glass');
    const inA = await newItem(a, 9, 1);
    const inB = await newItem(b, 9, 1);
    const change = (id: number, qty: number) => ({ '@metadata': { checksum: 'override' }, lineitem_id: id, qty_ordered: qty });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api.put('/lineitem', i % 2 === 0 ? [change(inA, 2 + i), change(inB, 3 + i)] : [change(inB, 3 + i), change(inA, 2 + i)]),
      ),
    );
    expect(unexpected(results, 200)).toEqual([]);
    expect(await demoRuleViolations(t.dataSource)).toEqual([]);
  });

  it('keeps exactly one winner among concurrent updates of one line item with the same checksum; the others are 4090', async () => {
    const order = await newOrder('Whiskey Works');
    const id = await newItem(order, 1, 1);
    const item = await one(`/lineitem/${id}`);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        api.put(`/lineitem/${id}`, { '@metadata': { checksum: item['@metadata'].checksum }, qty_ordered: 2 + i }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).map((r) => r.body.errorCode)).toEqual([4090, 4090, 4090, 4090, 4090]);
    expect(await demoRuleViolations(t.dataSource)).toEqual([]);
  });
});
