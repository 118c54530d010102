import { apiAs, apiWithRoles, oneRow, suiteAppAs, type Api } from './support/api.js';
import { demoProjectWithRoles } from './support/demo-project.js';
import { describeEachTarget, type TestApp } from './support/test-app.js';

const project = demoProjectWithRoles([
  {
    name: 'Order clerk',
    defaultAccess: 'NONE',
    resources: {
      customer: { access: ['ALL'] },
      purchaseorder: { access: ['ALL'] },
      lineitem: { access: ['ALL'] },
      product: { access: ['READ'] },
      purchaseorder_audit: { access: ['READ'] },
    },
  },
]);

type Row = Record<string, unknown> & { '@metadata': { href: string; checksum: string; resource?: string; verb?: string } };
interface Summary {
  statusCode: number;
  txsummary: Row[];
}

/**
 * The summary's rows as resource:verb, sorted; the audit rows the demo's after-event writes on every total change are left out.
 * A row the body held is named by its level (`OrderEntry.Lineitems`), one only rules changed by its table (`main:customer`).
 */
const verbs = (body: Summary): string[] =>
  body.txsummary
    .filter((r) => r['@metadata'].resource !== 'main:purchaseorder_audit')
    .map((r) => `${r['@metadata'].resource}:${r['@metadata'].verb}`)
    .sort();
const encoded = (filter: string): string => encodeURIComponent(filter);
/** The summary entry of the (first) row of this resource that the write touched. */
const entryOf = (body: Summary, resource: string): Row => body.txsummary.find((r) => r['@metadata'].resource === resource)!;

describeEachTarget('custom resources: writing documents', (target) => {
  let t: TestApp;
  let api: Api;

  suiteAppAs(target, 'demo', (app, client) => ([t, api] = [app, client]), { project });

  /** POSTs an order of this customer with these line items through OrderEntry; its order_number. */
  const newOrder = async (customer: string, lineitems: Array<{ product_number: number; qty_ordered: number }>): Promise<number> => {
    const created = await api.post('/OrderEntry', { customer_name: customer, Lineitems: lineitems }).expect(201);
    return entryOf(created.body as Summary, 'OrderEntry').order_number as number;
  };
  const count = async (path: string): Promise<number> =>
    ((await api.get(`${path}${path.includes('?') ? '&' : '?'}pagesize=5000`).expect(200)).body as Row[]).filter((r) => r['@metadata'].href)
      .length;
  const ordersOf = (customer: string): Promise<number> =>
    count(`/purchaseorder?sysfilter=${encoded(`equal(customer_name:'${customer}')`)}`);
  const itemsOf = async (order: number): Promise<Row[]> =>
    ((await api.get(`/lineitem?sysfilter=${encoded(`equal(order_number:${order})`)}`).expect(200)).body as Row[]).filter(
      (r) => r['@metadata'].href,
    );

  it('POSTs an order with three line items in one transaction: one txsummary with the rule-changed order and customer', async () => {
    await api.post('/customer', { name: 'Nested One', credit_limit: 10000 }).expect(201);
    const res = await api
      .post('/OrderEntry', {
        customer_name: 'Nested One',
        notes: 'three items',
        Lineitems: [
          { product_number: 1, qty_ordered: 1 },
          { product_number: 2, qty_ordered: 2 },
          { product_number: 4, qty_ordered: 3 },
        ],
      })
      .expect(201);
    const body = res.body as Summary;
    expect(verbs(body)).toEqual([
      'OrderEntry.Lineitems:INSERT',
      'OrderEntry.Lineitems:INSERT',
      'OrderEntry.Lineitems:INSERT',
      'OrderEntry:INSERT',
      'main:customer:UPDATE',
    ]);
    const order = entryOf(body, 'OrderEntry');
    // 1 × 10.00 + 2 × 25.00 + 3 × 45.50
    expect(order.amount_total).toBe(196.5);
    const items = body.txsummary.filter((r) => r['@metadata'].resource === 'OrderEntry.Lineitems');
    expect(items.every((i) => i.order_number === order.order_number)).toBe(true);
    expect(entryOf(body, 'main:customer').balance).toBe(196.5);
    expect(await itemsOf(order.order_number as number)).toHaveLength(3);
  });

  it('rolls the whole document back when one item fails a rule: no empty order left behind', async () => {
    await api.post('/customer', { name: 'Tight Co', credit_limit: 100 }).expect(201);
    const ordersBefore = await count('/purchaseorder');
    const itemsBefore = await count('/lineitem');
    const res = await api.post('/OrderEntry', {
      customer_name: 'Tight Co',
      Lineitems: [
        { product_number: 1, qty_ordered: 1 },
        { product_number: 1, qty_ordered: 2 },
        { product_number: 3, qty_ordered: 1 }, // the Drill (315.00) goes over the credit limit
      ],
    });
    expect(res.body).toMatchObject({ statusCode: 422, errorCode: 4220 });
    expect(await count('/purchaseorder')).toBe(ordersBefore);
    expect(await count('/lineitem')).toBe(itemsBefore);
    expect(await ordersOf('Tight Co')).toBe(0);
    expect((await oneRow<Row>(api, '/customer/Tight%20Co')).balance).toBe(0);
  });

  it("writes any depth: a customer, its order, its line items, each line item's product found by LOOKUP or made by MERGE_INSERT", async () => {
    const res = await api
      .post('/Customers', {
        name: 'Deep Co',
        credit_limit: 5000,
        Orders: [
          {
            notes: 'deep',
            Lineitems: [
              { qty_ordered: 2, Product: { '@metadata': { action: 'LOOKUP' }, name: 'Hammer' } },
              { qty_ordered: 1, Product: { '@metadata': { action: 'MERGE_INSERT' }, name: 'Gizmo', price: 3.5 } },
              { qty_ordered: 1, Product: { '@metadata': { action: 'MERGE_INSERT' }, product_number: 2, name: 'Shovel' } },
            ],
          },
        ],
      })
      .expect(201);
    const body = res.body as Summary;
    expect(verbs(body)).toEqual([
      'Customers.Orders.Lineitems.Product:INSERT',
      'Customers.Orders.Lineitems:INSERT',
      'Customers.Orders.Lineitems:INSERT',
      'Customers.Orders.Lineitems:INSERT',
      'Customers.Orders:INSERT',
      'Customers:INSERT',
    ]);
    const gizmo = entryOf(body, 'Customers.Orders.Lineitems.Product');
    const order = entryOf(body, 'Customers.Orders');
    expect(order.customer_name).toBe('Deep Co');
    const items = body.txsummary.filter((r) => r['@metadata'].resource === 'Customers.Orders.Lineitems');
    expect(items.map((i) => i.product_number)).toEqual([1, gizmo.product_number, 2]);
    expect(order.amount_total).toBe(2 * 10 + 3.5 + 25);
    expect(entryOf(body, 'Customers').balance).toBe(48.5);
  });

  it('a LOOKUP inside a document that finds no row, or two, is 400 / 4000 naming it, and nothing is written', async () => {
    const before = await count('/purchaseorder');
    const none = await api.post('/OrderEntry', {
      customer_name: 'Alpha and Sons',
      Lineitems: [{ qty_ordered: 1, product_number: 999999 }],
    });
    expect(none.status).toBe(422); // a plain foreign key: the database's answer
    const lookupNone = await api.post('/Customers', {
      name: 'Lookup Co',
      credit_limit: 10,
      Orders: [{ Lineitems: [{ qty_ordered: 1, Product: { '@metadata': { action: 'LOOKUP' }, name: 'No such tool' } }] }],
    });
    expect(lookupNone.body).toMatchObject({
      statusCode: 400,
      errorCode: 4000,
      errorMessage: expect.stringContaining('Customers.Orders.Lineitems.Product'),
    });
    await api
      .post('/product', [
        { name: 'Twin A', price: 77 },
        { name: 'Twin B', price: 77 },
      ])
      .expect(201);
    const lookupTwo = await api.post('/Customers', {
      name: 'Lookup Co',
      credit_limit: 1000,
      Orders: [{ Lineitems: [{ qty_ordered: 1, Product: { '@metadata': { action: 'LOOKUP' }, price: 77 } }] }],
    });
    expect(lookupTwo.body).toMatchObject({ statusCode: 400, errorCode: 4000, errorMessage: expect.stringMatching(/more than one row/) });
    expect(await count('/purchaseorder')).toBe(before);
    expect((await api.get('/customer/Lookup%20Co').expect(200)).body).toEqual([]);
  });

  it('every action inside a document: UPDATE the order, INSERT, UPDATE and DELETE line items, in one transaction', async () => {
    const n = await newOrder('Bravo Supply', [
      { product_number: 1, qty_ordered: 1 },
      { product_number: 2, qty_ordered: 1 },
    ]);
    const [first, second] = await itemsOf(n);
    const res = await api
      .put(`/OrderEntry/${n}`, {
        '@metadata': { checksum: 'override' },
        notes: 'edited',
        Lineitems: [
          { '@metadata': { checksum: first!['@metadata'].checksum }, lineitem_id: first!.lineitem_id, qty_ordered: 5 },
          { '@metadata': { action: 'DELETE', href: second!['@metadata'].href, checksum: second!['@metadata'].checksum } },
          { '@metadata': { action: 'INSERT' }, product_number: 6, qty_ordered: 4 },
          { '@metadata': { action: 'MERGE_INSERT' }, product_number: 7, qty_ordered: 1 },
        ],
      })
      .expect(200);
    const body = res.body as Summary;
    expect(verbs(body)).toEqual(
      expect.arrayContaining([
        'OrderEntry.Lineitems:DELETE',
        'OrderEntry.Lineitems:INSERT',
        'OrderEntry.Lineitems:INSERT',
        'OrderEntry.Lineitems:UPDATE',
        'OrderEntry:UPDATE',
        'main:customer:UPDATE',
      ]),
    );
    const items = await itemsOf(n);
    expect(items.map((i) => [i.product_number, i.qty_ordered]).sort()).toEqual([
      [1, 5],
      [6, 4],
      [7, 1],
    ]);
    expect((await oneRow<Row>(api, `/purchaseorder/${n}`)).notes).toBe('edited');
  });

  it('a LOOKUP object changes nothing and supplies its key to its children', async () => {
    const res = await api
      .put('/OrderEntry', {
        '@metadata': { action: 'LOOKUP' },
        order_number: 2,
        Lineitems: [{ '@metadata': { action: 'INSERT' }, product_number: 10, qty_ordered: 1 }],
      })
      .expect(200);
    const body = res.body as Summary;
    const item = entryOf(body, 'OrderEntry.Lineitems');
    expect(item).toMatchObject({ order_number: 2, product_number: 10, '@metadata': { verb: 'INSERT' } });
    // Its total, by the sum: the body held it (a LOOKUP), so it is named by its level.
    expect(entryOf(body, 'OrderEntry')['@metadata'].verb).toBe('UPDATE');
  });

  it('a stale checksum deep inside the document (even on an unchanged object) rolls everything back: 409 / 4090', async () => {
    const n = await newOrder('Charlie Tools', [{ product_number: 1, qty_ordered: 1 }]);
    const [item] = await itemsOf(n);
    const res = await api.put(`/OrderEntry/${n}`, {
      '@metadata': { checksum: 'override' },
      notes: 'should not stay',
      Lineitems: [{ '@metadata': { checksum: 'A:0000000000000000' }, lineitem_id: item!.lineitem_id, qty_ordered: item!.qty_ordered }],
    });
    expect(res.body).toMatchObject({ statusCode: 409, errorCode: 4090 });
    expect((await oneRow<Row>(api, `/purchaseorder/${n}`)).notes).toBeNull();
  });

  it('an unchanged object is not written and not listed; only the changed row and what its rules changed are', async () => {
    const n = await newOrder('Delta Hardware', [
      { product_number: 1, qty_ordered: 1 },
      { product_number: 5, qty_ordered: 2 },
    ]);
    const current = await oneRow<Row>(api, `/purchaseorder/${n}`);
    const [a, b] = await itemsOf(n);
    const document = {
      ...current,
      '@metadata': { href: `${t.base}/OrderEntry/${n}`, checksum: current['@metadata'].checksum },
      Lineitems: [a!, { ...b!, qty_ordered: 3 }].map((i: Row) => ({
        ...i,
        '@metadata': { href: `/OrderEntry.Lineitems/${String(i.lineitem_id)}`, checksum: i['@metadata'].checksum },
      })),
    };
    const res = await api.put(`/OrderEntry/${n}`, document).expect(200);
    const body = res.body as Summary;
    expect(verbs(body)).toEqual(['OrderEntry.Lineitems:UPDATE', 'OrderEntry:UPDATE', 'main:customer:UPDATE']);
    expect(entryOf(body, 'OrderEntry.Lineitems').lineitem_id).toBe(b!.lineitem_id);
    // The unchanged line item kept its checksum.
    expect((await oneRow<Row>(api, `/lineitem/${String(a!.lineitem_id)}`))['@metadata'].checksum).toBe(a!['@metadata'].checksum);
  });

  it('a changed derived attribute inside a document is ignored (Aggregate Default Override off): nothing written', async () => {
    const items = await itemsOf(1);
    const item = items[0]!;
    const res = await api
      .put('/OrderEntry/1', {
        '@metadata': { checksum: 'override' },
        Lineitems: [{ ...item, '@metadata': { checksum: item['@metadata'].checksum }, amount: Number(item.amount) + 1 }],
      })
      .expect(200);
    expect((res.body as Summary).txsummary).toEqual([]);
    expect((await itemsOf(1))[0]).toMatchObject({ amount: item.amount, '@metadata': { checksum: item['@metadata'].checksum } });
  });

  it('DELETE on a custom resource path deletes the row, its children cascading', async () => {
    const n = await newOrder('Echo Builders', [{ product_number: 1, qty_ordered: 1 }]);
    const res = await api.delete(`/OrderEntry/${n}?checksum=override`).expect(200);
    expect(verbs(res.body as Summary)).toEqual(['OrderEntry:DELETE', 'main:customer:UPDATE', 'main:lineitem:DELETE']);
    expect((await api.get(`/purchaseorder/${n}`).expect(200)).body).toEqual([]);
    expect(await itemsOf(n)).toEqual([]);
  });

  it('unknown attributes and sub-resources are 400 / 4003 naming them; a child that is not an array is 400 / 4000', async () => {
    const unknown = await api.post('/OrderEntry', { customer_name: 'Alpha and Sons', Items: [] });
    expect(unknown.body).toMatchObject({ statusCode: 400, errorCode: 4003, errorMessage: expect.stringContaining('"Items"') });
    const notArray = await api.post('/OrderEntry', { customer_name: 'Alpha and Sons', Lineitems: { qty_ordered: 1 } });
    expect(notArray.body).toMatchObject({ statusCode: 400, errorCode: 4000, errorMessage: expect.stringContaining('"Lineitems"') });
  });

  it('a Sales rep writes only within his grants: an order for himself with items, not an insert of a customer', async () => {
    const sam = await apiAs(t, 'sam');
    const ok = await sam
      .post('/OrderEntry', { customer_name: 'Foxtrot Farms', salesrep_id: 1, Lineitems: [{ product_number: 1, qty_ordered: 1 }] })
      .expect(201);
    expect(verbs(ok.body as Summary)).toEqual(['OrderEntry.Lineitems:INSERT', 'OrderEntry:INSERT', 'main:customer:UPDATE']);
    const refused = await sam.post('/OrderEntry', { customer_name: 'Foxtrot Farms', salesrep_id: 2, Lineitems: [] });
    expect(refused.body).toMatchObject({ statusCode: 403, errorCode: 4030 });
    const customer = await sam.post('/Customers', { name: 'Sam Co', credit_limit: 1 });
    expect(customer.body).toMatchObject({ statusCode: 403, errorCode: 4030 });
  });

  it('a parent the caller may only read: sent back unchanged it is checked, not written; changed it is 403 / 4030', async () => {
    const clerk = await apiWithRoles(t, ['Order clerk']);
    const product = await oneRow<Row>(api, '/product/5');
    const created = await clerk
      .post('/Customers', {
        name: 'Clerk Co',
        credit_limit: 1000,
        Orders: [{ Lineitems: [{ qty_ordered: 1, Product: { '@metadata': { action: 'LOOKUP' }, name: product.name } }] }],
      })
      .expect(201);
    const item = entryOf(created.body as Summary, 'Customers.Orders.Lineitems');
    const order = entryOf(created.body as Summary, 'Customers.Orders');
    const productObject = {
      '@metadata': { checksum: product['@metadata'].checksum },
      product_number: 5,
      name: product.name,
      price: product.price,
    };
    const document = (p: Record<string, unknown>, qty: number) => ({
      '@metadata': { checksum: 'override' },
      name: 'Clerk Co',
      Orders: [
        {
          '@metadata': { checksum: 'override' },
          order_number: order.order_number,
          Lineitems: [{ '@metadata': { checksum: 'override' }, lineitem_id: item.lineitem_id, qty_ordered: qty, Product: p }],
        },
      ],
    });
    const res = await clerk.put('/Customers/Clerk%20Co', document(productObject, 2)).expect(200);
    expect(verbs(res.body as Summary)).toEqual(['Customers.Orders.Lineitems:UPDATE', 'Customers.Orders:UPDATE', 'Customers:UPDATE']);
    const changed = await clerk.put('/Customers/Clerk%20Co', document({ ...productObject, price: 1 }, 3));
    expect(changed.body).toMatchObject({ statusCode: 403, errorCode: 4030 });
    const stale = await clerk.put(
      '/Customers/Clerk%20Co',
      document({ ...productObject, '@metadata': { checksum: 'A:0000000000000000' } }, 3),
    );
    expect(stale.body).toMatchObject({ statusCode: 409, errorCode: 4090 });
    expect((await oneRow<Row>(api, `/lineitem/${String(item.lineitem_id)}`)).qty_ordered).toBe(2);
  });
});
