import { suiteAppAs, oneRow, type Api } from './support/api.js';
import { demoRuleViolations } from './support/demo-invariants.js';
import { describeEachTarget, type TestApp } from './support/test-app.js';

/** A summary row: the rows the request wrote carry its resource's name, those its rules changed `main:<table>`. */
type Row = Record<string, unknown> & { '@metadata': { href: string; checksum?: string; resource?: string; verb?: string } };

describeEachTarget('logic engine: the demo rules', (target) => {
  let t: TestApp;
  let api: Api;

  suiteAppAs(target, 'demo', (app, client) => {
    t = app;
    api = client;
  });

  const one = (path: string): Promise<Row> => oneRow<Row>(api, path);

  /** Every txsummary row's checksum equals what a GET of that row returns right after. */
  async function expectSummaryMatchesReads(summary: Row[]): Promise<void> {
    for (const row of summary.filter((r) => r['@metadata'].verb !== 'DELETE')) {
      const path = new URL(row['@metadata'].href).pathname.replace(t.base, '');
      const fresh = await one(path);
      expect(row['@metadata'].checksum).toBe(fresh['@metadata'].checksum);
    }
  }

  async function newOrder(customer: string, paid = false): Promise<number> {
    const res = await api.post('/purchaseorder', { customer_name: customer, paid }).expect(201);
    return res.body.txsummary.find((r: Row) => r['@metadata'].resource === 'purchaseorder').order_number as number;
  }

  it('a new line item updates its order, its customer, and writes an audit row, all in txsummary', async () => {
    const customerBefore = await one('/customer/Delta%20Hardware');
    const orderNumber = await newOrder('Delta Hardware');
    const res = await api.post('/lineitem', { order_number: orderNumber, product_number: 3, qty_ordered: 2 }).expect(201);
    const summary = res.body.txsummary as Row[];
    const byResource = (name: string): Row[] => summary.filter((r) => r['@metadata'].resource === name);

    const [item] = byResource('lineitem');
    expect(item).toMatchObject({ product_price: 315, amount: 630, '@metadata': { verb: 'INSERT' } });
    const [order] = byResource('main:purchaseorder');
    expect(order).toMatchObject({ order_number: orderNumber, amount_total: 630, '@metadata': { verb: 'UPDATE' } });
    const [customer] = byResource('main:customer');
    expect(customer).toMatchObject({ name: 'Delta Hardware', '@metadata': { verb: 'UPDATE' } });
    expect(customer!.balance).toBeCloseTo(Number(customerBefore.balance) + 630, 4);
    const [audit] = byResource('main:purchaseorder_audit');
    expect(audit).toMatchObject({
      order_number: orderNumber,
      amount_total: 0,
      customer_name: 'Delta Hardware',
      '@metadata': { verb: 'INSERT' },
    });
    expect(summary).toHaveLength(4);
    await expectSummaryMatchesReads(summary);
    expect(await demoRuleViolations(t.dataSource)).toEqual([]);
  });

  it('values clients send for derived attributes are ignored (Aggregate Default Override off): the rules decide them', async () => {
    const created = await api.post('/customer', { name: 'Override Co', credit_limit: 10000, balance: 500 }).expect(201);
    expect(created.body.txsummary).toEqual([expect.objectContaining({ name: 'Override Co', balance: 0 })]);
    const orderNumber = await newOrder('Override Co');
    const res = await api.post('/lineitem', { order_number: orderNumber, product_number: 1, qty_ordered: 2, amount: 5, product_price: 1 });
    expect(res.status).toBe(201);
    const item = (res.body.txsummary as Row[]).find((r) => r['@metadata'].resource === 'lineitem');
    expect(item).toMatchObject({ product_price: 10, amount: 20 });
    const customer = await one('/customer/Override%20Co');
    expect(customer.balance).toBe(20);
    const put = await api
      .put('/customer/Override%20Co', { '@metadata': { checksum: customer['@metadata'].checksum }, balance: 0, credit_limit: 9000 })
      .expect(200);
    expect(put.body.txsummary).toEqual([expect.objectContaining({ name: 'Override Co', balance: 20, credit_limit: 9000 })]);
    await expectSummaryMatchesReads(put.body.txsummary as Row[]);
    expect(await demoRuleViolations(t.dataSource)).toEqual([]);
  });

  it('changing the quantity, then the product, of a line item adjusts amount, total and balance', async () => {
    const orderNumber = await newOrder('Foxtrot Farms');
    const created = await api.post('/lineitem', { order_number: orderNumber, product_number: 1, qty_ordered: 1 }).expect(201);
    const id = created.body.txsummary[0].lineitem_id as number;

    let item = await one(`/lineitem/${id}`);
    const qty = await api.put(`/lineitem/${id}`, { '@metadata': { checksum: item['@metadata'].checksum }, qty_ordered: 5 }).expect(200);
    expect(qty.body.txsummary.find((r: Row) => r['@metadata'].resource === 'main:purchaseorder').amount_total).toBe(50);
    await expectSummaryMatchesReads(qty.body.txsummary);

    item = await one(`/lineitem/${id}`);
    const product = await api
      .put(`/lineitem/${id}`, { '@metadata': { checksum: item['@metadata'].checksum }, product_number: 2 })
      .expect(200);
    const changed = product.body.txsummary.find((r: Row) => r['@metadata'].resource === 'lineitem');
    expect(changed).toMatchObject({ product_price: 25, amount: 125 });
    expect(product.body.txsummary.find((r: Row) => r['@metadata'].resource === 'main:purchaseorder').amount_total).toBe(125);
    expect(await demoRuleViolations(t.dataSource)).toEqual([]);
  });

  it('a later price change does not reach existing line items (copy, not reference)', async () => {
    const orderNumber = await newOrder('Golf Garden Co');
    const created = await api.post('/lineitem', { order_number: orderNumber, product_number: 6, qty_ordered: 1 }).expect(201);
    const id = created.body.txsummary[0].lineitem_id as number;
    const product = await one('/product/6');
    const res = await api.put('/product/6', { '@metadata': { checksum: product['@metadata'].checksum }, price: 99 }).expect(200);
    expect(res.body.txsummary).toHaveLength(1);
    expect((await one(`/lineitem/${id}`)).product_price).toBe(8.25);
  });

  it('moving a line item to another order takes its amount from the old order to the new one', async () => {
    const from = await newOrder('Hotel Renovations');
    const to = await newOrder('India Imports');
    const created = await api.post('/lineitem', { order_number: from, product_number: 4, qty_ordered: 2 }).expect(201);
    const id = created.body.txsummary[0].lineitem_id as number;
    const item = await one(`/lineitem/${id}`);
    const res = await api.put(`/lineitem/${id}`, { '@metadata': { checksum: item['@metadata'].checksum }, order_number: to }).expect(200);
    const orders = (res.body.txsummary as Row[]).filter((r) => r['@metadata'].resource === 'main:purchaseorder');
    expect(orders.map((o) => [o.order_number, o.amount_total]).sort()).toEqual(
      [
        [from, 0],
        [to, 91],
      ].sort(),
    );
    const customers = (res.body.txsummary as Row[])
      .filter((r) => r['@metadata'].resource === 'main:customer')
      .map((c) => c.name)
      .sort();
    expect(customers).toEqual(['Hotel Renovations', 'India Imports']);
    await expectSummaryMatchesReads(res.body.txsummary);
    expect(await demoRuleViolations(t.dataSource)).toEqual([]);
  });

  it('paying an order takes it out of the balance, and un-paying puts it back (qualification flips)', async () => {
    const orderNumber = await newOrder('Juliet Joinery');
    await api.post('/lineitem', { order_number: orderNumber, product_number: 7, qty_ordered: 1 }).expect(201);
    const start = Number((await one('/customer/Juliet%20Joinery')).balance);

    let order = await one(`/purchaseorder/${orderNumber}`);
    const pay = await api
      .put(`/purchaseorder/${orderNumber}`, { '@metadata': { checksum: order['@metadata'].checksum }, paid: true })
      .expect(200);
    expect(pay.body.txsummary.find((r: Row) => r['@metadata'].resource === 'main:customer').balance).toBeCloseTo(start - 120, 4);
    expect(pay.body.txsummary.some((r: Row) => r['@metadata'].resource === 'main:purchaseorder_audit')).toBe(false);

    order = await one(`/purchaseorder/${orderNumber}`);
    const unpay = await api
      .put(`/purchaseorder/${orderNumber}`, { '@metadata': { checksum: order['@metadata'].checksum }, paid: false })
      .expect(200);
    expect(unpay.body.txsummary.find((r: Row) => r['@metadata'].resource === 'main:customer').balance).toBeCloseTo(start, 4);
    expect(await demoRuleViolations(t.dataSource)).toEqual([]);
  });

  it('re-parenting an order moves its total from one customer balance to the other', async () => {
    const orderNumber = await newOrder('Kilo Kitchens');
    await api.post('/lineitem', { order_number: orderNumber, product_number: 8, qty_ordered: 1 }).expect(201);
    const order = await one(`/purchaseorder/${orderNumber}`);
    const res = await api
      .put(`/purchaseorder/${orderNumber}`, { '@metadata': { checksum: order['@metadata'].checksum }, customer_name: 'Lima Lumber' })
      .expect(200);
    expect(
      (res.body.txsummary as Row[])
        .filter((r) => r['@metadata'].resource === 'main:customer')
        .map((c) => c.name)
        .sort(),
    ).toEqual(['Kilo Kitchens', 'Lima Lumber']);
    await expectSummaryMatchesReads(res.body.txsummary);
    expect(await demoRuleViolations(t.dataSource)).toEqual([]);
  });

  it('deleting an order deletes its line items and reduces the balance', async () => {
    const orderNumber = await newOrder('Mike Masonry');
    await api
      .post('/lineitem', [
        { order_number: orderNumber, product_number: 1, qty_ordered: 1 },
        { order_number: orderNumber, product_number: 2, qty_ordered: 1 },
      ])
      .expect(201);
    const before = Number((await one('/customer/Mike%20Masonry')).balance);
    const res = await api.delete(`/purchaseorder/${orderNumber}?checksum=override`).expect(200);
    const summary = res.body.txsummary as Row[];
    expect(summary.filter((r) => r['@metadata'].resource === 'main:lineitem' && r['@metadata'].verb === 'DELETE')).toHaveLength(2);
    expect(summary.filter((r) => r['@metadata'].resource === 'main:purchaseorder_audit')).toHaveLength(0);
    expect(summary.find((r) => r['@metadata'].resource === 'main:customer')!.balance).toBeCloseTo(before - 35, 4);
    expect(await demoRuleViolations(t.dataSource)).toEqual([]);
  });

  it('a credit-limit violation answers 422 / 4220 and rolls back every row', async () => {
    const customer = 'Alpha and Sons';
    const before = await one(`/customer/${encodeURIComponent(customer)}`);
    const ordersBefore = await api
      .get(`/purchaseorder?sysfilter=${encodeURIComponent(`equal(customer_name:'${customer}')`)}&pagesize=100`)
      .expect(200);
    const orderNumber = await newOrder(customer);
    const res = await api.post('/lineitem', { order_number: orderNumber, product_number: 3, qty_ordered: 100 });
    expect(res.status).toBe(422);
    expect(res.body.errorCode).toBe(4220);
    expect(res.body.errorMessage).toMatch(/^Customer Alpha and Sons's balance [\d.]+ exceeds their credit limit 9000/);
    const after = await one(`/customer/${encodeURIComponent(customer)}`);
    expect(after['@metadata'].checksum).toBe(before['@metadata'].checksum);
    const order = await one(`/purchaseorder/${orderNumber}`);
    expect(order.amount_total).toBe(0);
    const items = await api.get(`/lineitem?filter=${encodeURIComponent(`order_number = ${orderNumber}`)}`).expect(200);
    expect(items.body).toEqual([]);
    const audits = await api.get(`/purchaseorder_audit?filter=${encodeURIComponent(`order_number = ${orderNumber}`)}`).expect(200);
    expect(audits.body).toEqual([]);
    expect(ordersBefore.body.length).toBeGreaterThan(0);
  });

  it('keeps every aggregate right under concurrent line-item inserts into the same order', async () => {
    const orderNumber = await newOrder('November Nails');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => api.post('/lineitem', { order_number: orderNumber, product_number: 1, qty_ordered: 1 })),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 201));
    expect((await one(`/purchaseorder/${orderNumber}`)).amount_total).toBe(10 * results.length);
    expect(await demoRuleViolations(t.dataSource)).toEqual([]);
  });
});

describeEachTarget('logic engine: Aggregate Default Override on', (target) => {
  let api: Api;

  suiteAppAs(target, 'demo', (_app, client) => (api = client), { env: { AGGREGATE_DEFAULT_OVERRIDE: 'true' } });

  it('a value sent for a derived attribute is 400 / 4003 naming it unless it equals the stored one', async () => {
    const res = await api.post('/lineitem', { order_number: 1, product_number: 1, qty_ordered: 1, amount: 5 });
    expect(res.body).toMatchObject({ statusCode: 400, errorCode: 4003, errorMessage: expect.stringMatching(/amount/) });
    const customer = await oneRow<Row>(api, '/customer/Echo%20Builders');
    const changed = await api.put('/customer/Echo%20Builders', { '@metadata': { checksum: customer['@metadata'].checksum }, balance: 0 });
    expect(changed.body).toMatchObject({ statusCode: 400, errorCode: 4003, errorMessage: expect.stringContaining('"balance"') });
    await api
      .put('/customer/Echo%20Builders', { '@metadata': { checksum: customer['@metadata'].checksum }, balance: customer.balance })
      .expect(200);
  });
});
