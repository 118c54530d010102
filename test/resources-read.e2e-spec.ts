import { demoCustomers, demoOrders, demoProducts } from '../src/demo/seed/demo-data.js';
import { API_HOST, suiteAppAs, type Api } from './support/api.js';
import { describeEachTargetOnBothAdapters, type TestApp } from './support/test-app.js';

describeEachTargetOnBothAdapters('resources: reading', (target) => {
  let t: TestApp;
  let api: Api;

  suiteAppAs(target, 'demo', (app, client) => {
    t = app;
    api = client;
  });

  it('lists a page of customers with @metadata, in key order, and a next_batch link', async () => {
    const res = await api.get('/customer').expect(200);
    expect(res.body).toHaveLength(21);
    const rows = res.body.slice(0, 20);
    const names = demoCustomers.map((c) => c.name).sort();
    expect(rows.map((r: { name: string }) => r.name)).toEqual(names.slice(0, 20));
    for (const row of rows) {
      expect(row['@metadata'].href).toBe(`http://${API_HOST}${t.base}/customer/${encodeURIComponent(row.name)}`);
      expect(row['@metadata'].checksum).toMatch(/^R:[0-9a-f]{16}$/);
      expect(typeof row.balance).toBe('number');
      expect(typeof row.credit_limit).toBe('number');
    }
    const next = res.body[20]['@metadata'].next_batch as string;
    expect(next).toMatch(/offset=20/);
    const page2 = await api.getUrl(next).expect(200);
    expect(page2.body.map((r: { name: string }) => r.name)).toEqual(names.slice(20));
  });

  it('ignores X-Forwarded-Proto and X-Forwarded-Host without TRUST_PROXY', async () => {
    const res = await api
      .get('/product?pagesize=1')
      .set('X-Forwarded-Proto', 'https')
      .set('X-Forwarded-Host', 'evil.example.com')
      .expect(200);
    expect(res.body[0]['@metadata'].href).toBe(`http://${API_HOST}${t.base}/product/1`);
    expect(res.body[1]['@metadata'].next_batch).toBe(`http://${API_HOST}${t.base}/product?pagesize=1&offset=1`);
  });

  it('gets one object by key as an array of one, with its checksum as ETag', async () => {
    const res = await api.get('/customer/Alpha%20and%20Sons').expect(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ name: 'Alpha and Sons', credit_limit: 9000 });
    expect(res.headers.etag).toBe(`"${res.body[0]['@metadata'].checksum}"`);
  });

  it('compares 32-bit integer columns with larger values, in filters and keys, on every database', async () => {
    const all = await api.get(`/purchaseorder?pagesize=100&filter=${encodeURIComponent('order_number < 3000000000')}`).expect(200);
    expect(all.body).toHaveLength(demoOrders.length);
    const none = await api
      .get(`/purchaseorder?sysfilter=${encodeURIComponent('equal_or(order_number:9007199254740993, salesrep_id:3000000000)')}`)
      .expect(200);
    expect(none.body).toEqual([]);
    expect((await api.get('/purchaseorder/3000000000').expect(200)).body).toEqual([]);
    expect(
      (await api.put('/purchaseorder/3000000000', { '@metadata': { checksum: 'override' }, notes: 'x' }).expect(404)).body.errorCode,
    ).toBe(4041);
  });

  it('answers an empty array for a missing key', async () => {
    const res = await api.get('/customer/Nobody%20Here').expect(200);
    expect(res.body).toEqual([]);
  });

  it('finds resources by prefixed and differently-cased names', async () => {
    const a = await api.get('/main:product/1').expect(200);
    const b = await api.get('/PRODUCT/1').expect(200);
    expect(a.body[0]).toMatchObject({ product_number: 1, name: 'Hammer', price: 10 });
    expect(b.body).toEqual(a.body);
  });

  it('renders booleans and decimals the same on every database', async () => {
    const res = await api.get('/purchaseorder?pagesize=20').expect(200);
    const orders = res.body as Array<{ paid: unknown; amount_total: unknown }>;
    expect(orders).toHaveLength(20);
    expect(orders.filter((o) => o.paid === true)).toHaveLength(demoOrders.filter((o) => o.paid).length);
    for (const o of orders) {
      expect(typeof o.paid).toBe('boolean');
      expect(typeof o.amount_total).toBe('number');
    }
  });

  it('filters with the free-form grammar and sorts', async () => {
    const res = await api
      .get(`/product?filter=${encodeURIComponent("price > 20 and name <> 'Drill'")}&order=${encodeURIComponent('price desc')}`)
      .expect(200);
    const expected = demoProducts
      .filter((p) => Number(p.price) > 20 && p.name !== 'Drill')
      .sort((a, b) => Number(b.price) - Number(a.price));
    expect(res.body.map((p: { name: string }) => p.name)).toEqual(expected.map((p) => p.name));
  });

  it('ANDs repeated filters and sysfilters', async () => {
    const res = await api
      .get(
        `/product?filter=${encodeURIComponent('price >= 10')}&sysfilter=${encodeURIComponent('less(price:100)')}&sysorder=${encodeURIComponent('(name:asc)')}`,
      )
      .expect(200);
    const expected = demoProducts
      .filter((p) => Number(p.price) >= 10 && Number(p.price) < 100)
      .map((p) => p.name)
      .sort();
    expect(res.body.map((p: { name: string }) => p.name)).toEqual(expected);
  });

  it('supports sysfilter modifiers _or and _uc', async () => {
    const res = await api.get(`/product?sysfilter=${encodeURIComponent("equal_or_uc(name:'HAMMER', name:'drill')")}`).expect(200);
    expect(res.body.map((p: { name: string }) => p.name).sort()).toEqual(['Drill', 'Hammer']);
  });

  it('pages with pagesize and offset', async () => {
    const res = await api.get('/product?pagesize=3&offset=3').expect(200);
    expect(res.body.slice(0, 3).map((p: { product_number: number }) => p.product_number)).toEqual([4, 5, 6]);
    expect(res.body[3]['@metadata'].next_batch).toMatch(/offset=6/);
    const last = await api.get('/product?pagesize=5&offset=5').expect(200);
    expect(last.body).toHaveLength(5);
    expect(last.body.every((o: Record<string, unknown>) => !('next_batch' in (o['@metadata'] as object)))).toBe(true);
  });

  it.each([
    ['a syntax error, with its position', `filter=${encodeURIComponent('price >')}`, 400, 4001],
    ['an unknown column', `filter=${encodeURIComponent('nope = 1')}`, 400, 4003],
    ['a value of the wrong type', `filter=${encodeURIComponent("price = 'cheap'")}`, 400, 4000],
    ['an unknown sysfilter function', `sysfilter=${encodeURIComponent('around(price:1)')}`, 400, 4001],
    ['an unknown order column', `order=${encodeURIComponent('nope desc')}`, 400, 4003],
    ['a pagesize over the maximum', 'pagesize=5001', 400, 4000],
    ['a negative offset', 'offset=-1', 400, 4000],
    ['more than 8 sort terms', `order=${encodeURIComponent('name, price, name, price, name, price, name, price, name')}`, 400, 4001],
  ])('refuses %s', async (_label, query, status, code) => {
    const res = await api.get(`/product?${query}`);
    expect(res.status).toBe(status);
    expect(res.body.errorCode).toBe(code);
    expect(JSON.stringify(res.body)).not.toMatch(/select|sqlite|syntax error at or near|mysql/i);
  });

  it('refuses a filter longer than 4 KiB', async () => {
    const long = `name = '${'x'.repeat(5000)}'`;
    const res = await api.get(`/product?filter=${encodeURIComponent(long)}`);
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe(4001);
  });

  it('answers 404 / 4040 for an unknown resource', async () => {
    const res = await api.get('/nothing').expect(404);
    expect(res.body.errorCode).toBe(4040);
  });

  it('describes resources and tables', async () => {
    const list = await api.get('/@resources').expect(200);
    expect(list.body.map((r: { name: string }) => r.name)).toEqual(
      expect.arrayContaining(['customer', 'product', 'employee', 'purchaseorder', 'lineitem', 'purchaseorder_audit']),
    );
    const table = await api.get('/@tables/customer').expect(200);
    expect(table.body.primaryKey).toEqual(['name']);
    expect(table.body.columns).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'name', type: 'string', size: 30, nullable: false, primaryKey: true }),
        expect.objectContaining({ name: 'credit_limit', type: 'decimal', precision: 19, scale: 4 }),
      ]),
    );
    await api.get('/@tables').expect(200);
    await api.get('/@tables/nope').expect(404);
  });
});
