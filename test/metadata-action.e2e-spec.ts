import { apiAs, apiWithRoles, oneRow, suiteAppAs, type Api } from './support/api.js';
import { demoProjectWithRoles } from './support/demo-project.js';
import { describeEachTarget, type TestApp } from './support/test-app.js';

type Row = Record<string, unknown> & { '@metadata': { href: string; checksum: string; resource?: string; verb?: string } };

const project = demoProjectWithRoles([
  { name: 'Product updater', defaultAccess: 'NONE', resources: { product: { access: ['READ', 'UPDATE'] } } },
  { name: 'Product inserter', defaultAccess: 'NONE', resources: { product: { access: ['READ', 'INSERT'] } } },
  {
    name: 'Price-blind updater',
    defaultAccess: 'NONE',
    resources: { product: { access: ['READ', 'UPDATE'], readColumns: ['product_number', 'name'], writeColumns: ['name'] } },
  },
]);

const encoded = (filter: string): string => encodeURIComponent(filter);

describeEachTarget('@metadata.action on table resources', (target) => {
  let t: TestApp;
  let api: Api;

  suiteAppAs(target, 'demo', (app, client) => ([t, api] = [app, client]), { project });

  const customers = async (name: string): Promise<Row[]> =>
    (await api.get(`/customer?sysfilter=${encoded(`equal(name:'${name}')`)}`).expect(200)).body as Row[];
  const verbs = (body: { txsummary: Row[] }): string[] => body.txsummary.map((r) => `${r['@metadata'].resource}:${r['@metadata'].verb}`);

  it("a DELETE in a PUT deletes the row (the issue's example), with the txsummary of a DELETE", async () => {
    await api.post('/customer', { name: 'Zed5', credit_limit: 100 }).expect(201);
    const res = await api.put('/customer', { '@metadata': { action: 'DELETE', checksum: 'override' }, name: 'Zed5' }).expect(200);
    expect(verbs(res.body)).toEqual(['customer:DELETE']);
    expect(await customers('Zed5')).toEqual([]);
  });

  it('a DELETE in a PUT keeps the checksum rules of DELETE: required (4004), stale (409 / 4090), current (200)', async () => {
    await api.post('/customer', { name: 'Zed6', credit_limit: 100 }).expect(201);
    const row = await oneRow<Row>(api, '/customer/Zed6');
    const none = await api.put('/customer', { '@metadata': { action: 'DELETE' }, name: 'Zed6' });
    expect(none.body).toMatchObject({ statusCode: 400, errorCode: 4004 });
    const stale = await api.put('/customer', { '@metadata': { action: 'delete', checksum: 'A:0000000000000000' }, name: 'Zed6' });
    expect(stale.body).toMatchObject({ statusCode: 409, errorCode: 4090 });
    await api.put('/customer/Zed6', { '@metadata': { action: 'DELETE', checksum: row['@metadata'].checksum } }).expect(200);
    expect(await customers('Zed6')).toEqual([]);
  });

  it('an INSERT in a PUT inserts', async () => {
    const res = await api.put('/customer', { '@metadata': { action: 'INSERT' }, name: 'Zed7', credit_limit: 50 }).expect(200);
    expect(verbs(res.body)).toEqual(['customer:INSERT']);
    expect((await oneRow<Row>(api, '/customer/Zed7')).credit_limit).toBe(50);
  });

  it('MERGE_INSERT updates an existing key and inserts a new one, in a PUT and in a POST', async () => {
    const updated = await api.put('/customer', { '@metadata': { action: 'MERGE_INSERT' }, name: 'Zed7', credit_limit: 75 }).expect(200);
    expect(verbs(updated.body)).toEqual(['customer:UPDATE']);
    expect((await oneRow<Row>(api, '/customer/Zed7')).credit_limit).toBe(75);
    const inserted = await api.post('/customer', { '@metadata': { action: 'MERGE_INSERT' }, name: 'Zed8', credit_limit: 20 }).expect(201);
    expect(verbs(inserted.body)).toEqual(['customer:INSERT']);
    expect((await oneRow<Row>(api, '/customer/Zed8')).credit_limit).toBe(20);
  });

  it('MERGE_INSERT with a stale checksum on an existing row is 409 / 4090', async () => {
    const res = await api.put('/customer', {
      '@metadata': { action: 'MERGE_INSERT', checksum: 'A:0000000000000000' },
      name: 'Zed7',
      credit_limit: 1,
    });
    expect(res.body).toMatchObject({ statusCode: 409, errorCode: 4090 });
  });

  it('concurrent MERGE_INSERTs of the same new key: every one succeeds (the losers update), one row, never a 500', async () => {
    const limits = [11, 12, 13, 14, 15, 16];
    const results = await Promise.all(
      limits.map((credit_limit) => api.put('/customer', { '@metadata': { action: 'MERGE_INSERT' }, name: 'Merged Co', credit_limit })),
    );
    expect(results.map((r) => r.status)).toEqual(limits.map(() => 200));
    const verbsSeen = results.map((r) => verbs(r.body)[0]);
    expect(verbsSeen.filter((v) => v === 'customer:INSERT')).toHaveLength(1);
    const rows = await customers('Merged Co');
    expect(rows).toHaveLength(1);
    expect(limits).toContain(rows[0]!.credit_limit);
  });

  it('LOOKUP finds a row by the attributes given and changes nothing; 0 or several matches are 400 / 4000 naming it', async () => {
    const found = await api.put('/customer', { '@metadata': { action: 'LOOKUP' }, name: 'Alpha and Sons' }).expect(200);
    expect(found.body.txsummary).toEqual([]);
    const none = await api.put('/customer', { '@metadata': { action: 'LOOKUP' }, name: 'No Such Co' });
    expect(none.body).toMatchObject({
      statusCode: 400,
      errorCode: 4000,
      errorMessage: expect.stringMatching(/LOOKUP of customer found no row/),
    });
    await api
      .post('/customer', [
        { name: 'Twin One', credit_limit: 4321 },
        { name: 'Twin Two', credit_limit: 4321 },
      ])
      .expect(201);
    const two = await api.put('/customer', { '@metadata': { action: 'LOOKUP' }, credit_limit: 4321 });
    expect(two.body).toMatchObject({
      statusCode: 400,
      errorCode: 4000,
      errorMessage: expect.stringMatching(/customer found more than one row/),
    });
  });

  it('an unknown action is 400 / 4000 naming it', async () => {
    const res = await api.put('/customer', { '@metadata': { action: 'UPSERT', checksum: 'override' }, name: 'Zed7' });
    expect(res.body).toMatchObject({ statusCode: 400, errorCode: 4000, errorMessage: expect.stringContaining('"UPSERT"') });
  });

  it('mixed actions in one array: one transaction and one txsummary', async () => {
    await api.post('/customer', { name: 'Zed9', credit_limit: 10 }).expect(201);
    const res = await api
      .put('/customer', [
        { '@metadata': { checksum: 'override' }, name: 'Zed7', credit_limit: 99 },
        { '@metadata': { action: 'INSERT' }, name: 'Zed10', credit_limit: 10 },
        { '@metadata': { action: 'DELETE', checksum: 'override' }, name: 'Zed9' },
      ])
      .expect(200);
    expect(verbs(res.body)).toEqual(['customer:UPDATE', 'customer:INSERT', 'customer:DELETE']);
    expect(await customers('Zed9')).toEqual([]);
    expect(await customers('Zed10')).toHaveLength(1);
  });

  it('mixed actions roll back together when one fails', async () => {
    const res = await api.put('/customer', [
      { '@metadata': { action: 'INSERT' }, name: 'Zed11', credit_limit: 10 },
      { '@metadata': { checksum: 'override' }, name: 'Zed7', credit_limit: 98 },
      { '@metadata': { action: 'DELETE', checksum: 'A:0000000000000000' }, name: 'Zed10' },
    ]);
    expect(res.body).toMatchObject({ statusCode: 409, errorCode: 4090 });
    expect(await customers('Zed11')).toEqual([]);
    expect((await oneRow<Row>(api, '/customer/Zed7')).credit_limit).toBe(99);
  });

  it("each action needs its own grant: the verb's access is not enough (403 / 4030)", async () => {
    const updater = await apiWithRoles(t, ['Product updater']);
    const del = await updater.put('/product', { '@metadata': { action: 'DELETE', checksum: 'override' }, product_number: 1 });
    expect(del.body).toMatchObject({ statusCode: 403, errorCode: 4030 });
    const ins = await updater.put('/product', { '@metadata': { action: 'INSERT' }, name: 'Sneaky', price: 1 });
    expect(ins.body).toMatchObject({ statusCode: 403, errorCode: 4030 });
    const merge = await updater.put('/product', { '@metadata': { action: 'MERGE_INSERT' }, name: 'Sneaky', price: 1 });
    expect(merge.body).toMatchObject({ statusCode: 403, errorCode: 4030 });
    const inserter = await apiWithRoles(t, ['Product inserter']);
    const upd = await inserter.post('/product', { '@metadata': { action: 'UPDATE', checksum: 'override' }, product_number: 1, price: 1 });
    expect(upd.body).toMatchObject({ statusCode: 403, errorCode: 4030 });
    expect((await oneRow<Row>(api, '/product/1')).price).toBe(10);
    const readonly = await apiAs(t, 'readonly');
    const lookup = await readonly.put('/product', { '@metadata': { action: 'LOOKUP' }, name: 'Hammer' });
    expect(lookup.status).toBe(403); // the route's UPDATE guard
  });

  it('a LOOKUP or round trip by a column the caller cannot read is 400 / 4003 (nothing about it may be inferred)', async () => {
    const blind = await apiWithRoles(t, ['Price-blind updater']);
    const lookup = await blind.put('/product', { '@metadata': { action: 'LOOKUP' }, price: 10 });
    expect(lookup.body).toMatchObject({ statusCode: 400, errorCode: 4003, errorMessage: expect.stringContaining('"price"') });
    const same = await blind.put('/product/1', { '@metadata': { checksum: 'override' }, name: 'Hammer', price: 10 });
    expect(same.body).toMatchObject({ statusCode: 400, errorCode: 4003 });
    await blind.put('/product/1', { '@metadata': { checksum: 'override' }, name: 'Hammer' }).expect(200);
  });
});
