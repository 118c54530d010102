import { apiWithRoles, oneRow, suiteAppAs, type Api } from './support/api.js';
import { demoProjectWithRoles } from './support/demo-project.js';
import { describeEachTarget, type TestApp } from './support/test-app.js';

type Row = Record<string, unknown> & { '@metadata': { href: string; checksum: string; resource?: string; verb?: string } };
type Summary = { txsummary: Row[] };

const project = demoProjectWithRoles([
  // Writes customers; reads products but may not change them.
  { name: 'Customer clerk', defaultAccess: 'NONE', resources: { customer: { access: ['ALL'] }, product: { access: ['READ'] } } },
  // Writes customers; holds no grant at all on product.
  { name: 'Customer only', defaultAccess: 'NONE', resources: { customer: { access: ['ALL'] } } },
]);

const verbs = (body: Summary): string[] => body.txsummary.map((r) => `${r['@metadata'].resource}:${r['@metadata'].verb}`).sort();

/**
 * LAC's "Mix and Match" (issue 26, item 4): objects of several resources in one request, each
 * naming its resource by `@metadata.entity` or a full `@metadata.href`, at the API root and
 * inside a resource's array; one transaction, each object under the caller's grants on its own
 * resource.
 */
describeEachTarget('mixed writes', (target) => {
  let t: TestApp;
  let api: Api;

  suiteAppAs(target, 'demo', (app, client) => ([t, api] = [app, client]), { project });

  let productNumber: number;
  const product = (): Promise<Row> => oneRow<Row>(api, `/product/${productNumber}`);
  const customer = (name: string): Promise<Row> => oneRow<Row>(api, `/customer/${encodeURIComponent(name)}`);

  beforeAll(async () => {
    const res = await api.post('/product', { name: 'Mixed widget', price: 10 }).expect(201);
    productNumber = (res.body as Summary).txsummary[0]!.product_number as number;
    await api.post('/customer', [
      { name: 'Mixed One', credit_limit: 100 },
      { name: 'Mixed Two', credit_limit: 100 },
    ]);
  });

  it('a PUT at the API root with a customer and a product (by @metadata.entity) updates both in one transaction', async () => {
    const [c, p] = [await customer('Mixed One'), await product()];
    const res = await api
      .put('', [
        { '@metadata': { entity: 'customer', checksum: c['@metadata'].checksum }, name: 'Mixed One', credit_limit: 150 },
        { '@metadata': { entity: 'main:product', checksum: p['@metadata'].checksum }, product_number: productNumber, price: 11 },
      ])
      .expect(200);
    expect(verbs(res.body as Summary)).toEqual(['customer:UPDATE', 'product:UPDATE']);
    expect((await customer('Mixed One')).credit_limit).toBe(150);
    expect((await product()).price).toBe(11);
  });

  it('a failing second object rolls the first back (422 from a rule), nothing written', async () => {
    const before = await product();
    const res = await api.put('', [
      { '@metadata': { entity: 'product', checksum: 'override' }, product_number: productNumber, price: 99 },
      { '@metadata': { entity: 'customer', checksum: 'override' }, name: 'Mixed Two', credit_limit: -1 },
    ]);
    expect(res.body).toMatchObject({ statusCode: 422, errorCode: 4220 });
    expect((await product()).price).toBe(before.price);
    expect((await customer('Mixed Two')).credit_limit).toBe(100);
  });

  it('a POST at the API root inserts objects of several resources (entity names are case-insensitive; a custom resource too)', async () => {
    const res = await api
      .post('', [
        { '@metadata': { entity: 'CUSTOMER' }, name: 'Mixed Three', credit_limit: 40 },
        { '@metadata': { entity: 'Product' }, name: 'Mixed gadget', price: 3 },
        { '@metadata': { entity: 'customers' }, name: 'Mixed Four', credit_limit: 60, Orders: [] },
      ])
      .expect(201);
    // Each row in its own resource's terms: the custom resource's by its name (see summary-resource-terms).
    expect(verbs(res.body as Summary)).toEqual(['Customers:INSERT', 'customer:INSERT', 'product:INSERT']);
    expect((await customer('Mixed Four')).credit_limit).toBe(60);
  });

  it('a POST to customer whose array holds a product object by @metadata.href writes both', async () => {
    const p = await product();
    const res = await api
      .post('/customer', [
        { name: 'Mixed Five', credit_limit: 10 },
        { '@metadata': { href: p['@metadata'].href, action: 'UPDATE', checksum: p['@metadata'].checksum }, price: 12 },
      ])
      .expect(201);
    expect(verbs(res.body as Summary)).toEqual(['customer:INSERT', 'product:UPDATE']);
    expect((await product()).price).toBe(12);
  });

  it('an object at the API root that names no resource is 400 / 4000', async () => {
    const res = await api.post('', [{ name: 'Mixed Nameless', credit_limit: 1 }]);
    expect(res.body).toMatchObject({ statusCode: 400, errorCode: 4000 });
    expect((await api.get('/customer/Mixed%20Nameless').expect(200)).body).toEqual([]);
  });

  it('an unknown entity is 400 / 4000, and a resource the caller holds no grant on is answered in the same words', async () => {
    const unknown = await api.post('', [{ '@metadata': { entity: 'nosuchtable' }, name: 'x' }]);
    expect(unknown.body).toMatchObject({ statusCode: 400, errorCode: 4000 });
    const only = await apiWithRoles(t, ['Customer only']);
    const hidden = await only.post('', [{ '@metadata': { entity: 'product' }, name: 'x' }]);
    expect(hidden.body).toMatchObject({ statusCode: 400, errorCode: 4000 });
    const ghost = await only.post('', [{ '@metadata': { entity: 'producz' }, name: 'x' }]);
    expect(hidden.body.errorMessage.replace('product', 'producz')).toBe(ghost.body.errorMessage);
  });

  it('a caller without a write grant on the second resource gets 403 / 4030 and nothing is written (root and array)', async () => {
    const clerk = await apiWithRoles(t, ['Customer clerk']);
    const p = await product();
    const atRoot = await clerk.put('', [
      { '@metadata': { entity: 'customer', checksum: 'override' }, name: 'Mixed One', credit_limit: 175 },
      { '@metadata': { entity: 'product', checksum: 'override' }, product_number: productNumber, price: 50 },
    ]);
    expect(atRoot.body).toMatchObject({ statusCode: 403, errorCode: 4030 });
    const inArray = await clerk.post('/customer', [
      { name: 'Mixed Six', credit_limit: 10 },
      { '@metadata': { href: p['@metadata'].href, action: 'UPDATE', checksum: 'override' }, price: 50 },
    ]);
    expect(inArray.body).toMatchObject({ statusCode: 403, errorCode: 4030 });
    const inserted = await clerk.post('', [
      { '@metadata': { entity: 'customer' }, name: 'Mixed Six', credit_limit: 10 },
      { '@metadata': { entity: 'product' }, name: 'Mixed forbidden', price: 1 },
    ]);
    expect(inserted.body).toMatchObject({ statusCode: 403, errorCode: 4030 });
    expect((await customer('Mixed One')).credit_limit).toBe(150);
    expect((await product()).price).toBe(p.price);
    expect((await api.get('/customer/Mixed%20Six').expect(200)).body).toEqual([]);
  });

  it("@docs describes the API root's POST and PUT", async () => {
    const doc = (await api.get('/@docs').expect(200)).body as { paths: Record<string, Record<string, { operationId: string }>> };
    expect(doc.paths['/']?.post?.operationId).toBe('insert_mixed');
    expect(doc.paths['/']?.put?.operationId).toBe('update_mixed');
  });

  it('two concurrent mixed PUTs naming the same rows in opposite orders both finish', async () => {
    const body = (limit: number, price: number, reversed: boolean): unknown[] => {
      const objects = [
        { '@metadata': { entity: 'customer', checksum: 'override' }, name: 'Mixed Two', credit_limit: limit },
        { '@metadata': { entity: 'product', checksum: 'override' }, product_number: productNumber, price },
      ];
      return reversed ? objects.reverse() : objects;
    };
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all([
        api.put('', body(200 + round, 20 + round, false)),
        api.put('', body(300 + round, 30 + round, true)),
      ]);
      expect(results.map((r) => r.status)).toEqual([200, 200]);
    }
    // Whichever committed last wrote both rows: never one of each.
    const [c, p] = [await customer('Mixed Two'), await product()];
    expect([
      [202, 22],
      [302, 32],
    ]).toContainEqual([c.credit_limit, p.price]);
  });
});
