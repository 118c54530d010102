import { apiAs, apiWithRoles, oneRow, type Api } from './support/api.js';
import { adminHeader } from './support/auth.js';
import { demoProjectWithRoles } from './support/demo-project.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

type Row = Record<string, unknown> & { '@metadata': { href: string; checksum: string; resource?: string } };
/** A purchase order row: its key goes into URLs. */
type Order = Row & { order_number: number };

/** The demo roles plus small ones that each grant one thing, for the per-verb and union checks. */
const project = demoProjectWithRoles(
  [
    { name: 'Product reader', defaultAccess: 'NONE', resources: { product: { access: ['READ'] } } },
    { name: 'Product inserter', defaultAccess: 'NONE', resources: { product: { access: ['INSERT'] } } },
    { name: 'Product updater', defaultAccess: 'NONE', resources: { product: { access: ['UPDATE'] } } },
    { name: 'Product deleter', defaultAccess: 'NONE', resources: { product: { access: ['DELETE'] } } },
    {
      name: 'Cheap products',
      defaultAccess: 'NONE',
      resources: { product: { access: ['READ'], rowFilter: 'price < 20', readColumns: ['product_number', 'name'] } },
    },
    {
      name: 'Dear products',
      defaultAccess: 'NONE',
      resources: { product: { access: ['READ'], rowFilter: 'price >= 20', readColumns: ['product_number', 'price'] } },
    },
    { name: 'Meta only', defaultAccess: 'NONE', metaAccess: true },
    {
      name: 'Order taker',
      defaultAccess: 'NONE',
      resources: { purchaseorder: { access: ['READ', 'INSERT'], writeColumns: ['customer_name', 'salesrep_id', 'paid'] } },
    },
  ],
  ['region'],
);

describeEachTarget('roles and permissions', (target) => {
  let t: TestApp;
  let full: Api;
  let readonly: Api;
  let sam: Api;
  let pat: Api;

  suiteApp(target, { project }, async (app) => {
    t = app;
    full = await apiAs(t, 'demo');
    readonly = await apiAs(t, 'readonly');
    sam = await apiAs(t, 'sam');
    pat = await apiWithRoles(t, ['Sales rep'], { employee_id: 2 });
  });

  const one = (api: Api, path: string): Promise<Row> => oneRow<Row>(api, path);

  describe('access levels per verb', () => {
    it('READ alone: reads, and 403 / 4030 on insert, update and delete', async () => {
      const api = await apiWithRoles(t, ['Product reader']);
      await api.get('/product/1').expect(200);
      for (const res of [
        await api.post('/product', { name: 'Nope', price: 1 }),
        await api.put('/product/1', { '@metadata': { checksum: 'override' }, price: 11 }),
        await api.delete('/product/1?checksum=override'),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.errorCode).toBe(4030);
      }
    });

    it('INSERT alone: inserts; reads and other writes are 403', async () => {
      const api = await apiWithRoles(t, ['Product inserter']);
      const res = await api.post('/product', { name: 'Inserted only', price: 3 }).expect(201);
      expect(res.body.txsummary).toEqual([]); // it may not read what it wrote
      expect((await api.get('/product')).status).toBe(403);
      expect((await api.put('/product/1', { '@metadata': { checksum: 'override' }, price: 11 })).status).toBe(403);
    });

    it('UPDATE alone: updates; reads, inserts and deletes are 403', async () => {
      const api = await apiWithRoles(t, ['Product updater']);
      await api.put('/product/9', { '@metadata': { checksum: 'override' }, price: 7.5 }).expect(200);
      expect((await api.get('/product/9')).status).toBe(403);
      expect((await api.delete('/product/9?checksum=override')).status).toBe(403);
      expect((await one(full, '/product/9')).price).toBe(7.5);
    });

    it('DELETE alone: deletes; reads and updates are 403', async () => {
      const created = await full.post('/product', { name: 'To be deleted', price: 1 }).expect(201);
      const id = created.body.txsummary[0].product_number as number;
      const api = await apiWithRoles(t, ['Product deleter']);
      expect((await api.get(`/product/${id}`)).status).toBe(403);
      await api.delete(`/product/${id}?checksum=override`).expect(200);
      expect((await full.get(`/product/${id}`).expect(200)).body).toEqual([]);
    });

    it('no access at all: 403 / 4030 on every verb, and on the meta endpoints', async () => {
      const api = await apiWithRoles(t, ['Product reader']);
      for (const res of [
        await api.get('/customer'),
        await api.get('/customer/Alpha%20and%20Sons'),
        await api.post('/customer', { name: 'X', credit_limit: 1 }),
        await api.put('/customer/Alpha%20and%20Sons', { '@metadata': { checksum: 'override' }, credit_limit: 1 }),
        await api.delete('/customer/Alpha%20and%20Sons?checksum=override'),
        await api.get('/@tables'),
        await api.get('/@resources'),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.errorCode).toBe(4030);
      }
    });

    it('Read only reads everything and changes nothing; meta endpoints are open to it', async () => {
      await readonly.get('/purchaseorder_audit').expect(200);
      await readonly.get('/@tables').expect(200);
      const res = await readonly.put('/product/1', { '@metadata': { checksum: 'override' }, price: 11 });
      expect(res.status).toBe(403);
    });
  });

  describe('row filters: a sales rep and their own orders', () => {
    const isSams = (o: Record<string, unknown>): boolean => o.salesrep_id === 1;

    it('lists only their own orders, and pages count only those', async () => {
      const all = await full.get('/purchaseorder?pagesize=100').expect(200);
      const samsAll = (all.body as Row[]).filter((o) => '@metadata' in o && isSams(o));
      const res = await sam.get('/purchaseorder?pagesize=2').expect(200);
      expect(res.body.slice(0, 2).every(isSams)).toBe(true);
      const page2 = await sam.get('/purchaseorder?pagesize=100').expect(200);
      expect(page2.body.map((o: Row) => o.order_number)).toEqual(samsAll.map((o) => o.order_number));
    });

    it("cannot read, update or delete another rep's order (OWASP API1): it looks missing", async () => {
      const patsOrder = (await full.get(`/purchaseorder?filter=${encodeURIComponent('salesrep_id = 2')}`).expect(200)).body[0] as Order;
      expect((await sam.get(`/purchaseorder/${patsOrder.order_number}`).expect(200)).body).toEqual([]);
      const put = await sam.put(`/purchaseorder/${patsOrder.order_number}`, { '@metadata': { checksum: 'override' }, notes: 'mine now' });
      expect(put.status).toBe(404);
      expect(put.body.errorCode).toBe(4041);
      const del = await sam.delete(`/purchaseorder/${patsOrder.order_number}?checksum=override`);
      expect(del.status).toBe(404);
      expect(del.body.errorCode).toBe(4041);
      const wrongChecksum = await sam.put(`/purchaseorder/${patsOrder.order_number}`, {
        '@metadata': { checksum: 'R:0000000000000000' },
        notes: 'x',
      });
      expect(wrongChecksum.status).toBe(404);
      expect((await one(full, `/purchaseorder/${patsOrder.order_number}`)).notes).toBe(patsOrder.notes);
    });

    it("sees only line items of their own orders, through the parent's column", async () => {
      const res = await sam.get('/lineitem?pagesize=500').expect(200);
      const items = res.body as Row[];
      expect(items.length).toBeGreaterThan(0);
      const orders = new Set(((await sam.get('/purchaseorder?pagesize=100').expect(200)).body as Row[]).map((o) => o.order_number));
      expect(items.every((i) => orders.has(i.order_number))).toBe(true);
      const patsItems = await pat.get('/lineitem?pagesize=500').expect(200);
      expect((patsItems.body as Row[]).some((i) => orders.has(i.order_number))).toBe(false);
    });

    it('may insert an order of their own, not one for another rep, and may not move one out of their filter', async () => {
      const mine = await sam.post('/purchaseorder', { customer_name: 'Bravo Supply', salesrep_id: 1 }).expect(201);
      const orderNumber = mine.body.txsummary.find((r: Row) => r['@metadata'].resource === 'purchaseorder').order_number;
      const theirs = await sam.post('/purchaseorder', { customer_name: 'Bravo Supply', salesrep_id: 2 });
      expect(theirs.status).toBe(403);
      expect(theirs.body.errorCode).toBe(4030);
      const away = await sam.put(`/purchaseorder/${orderNumber}`, { '@metadata': { checksum: 'override' }, salesrep_id: 2 });
      expect(away.status).toBe(403);
      expect((await one(full, `/purchaseorder/${orderNumber}`)).salesrep_id).toBe(1);
    });

    it("rules run with the system's rights, but txsummary shows only what the rep may read", async () => {
      const order = (await sam.get('/purchaseorder?pagesize=1').expect(200)).body[0] as Order;
      const res = await sam.post('/lineitem', { order_number: order.order_number, product_number: 1, qty_ordered: 1 }).expect(201);
      const summary = res.body.txsummary as Row[];
      const customer = summary.find((r) => r['@metadata'].resource === 'main:customer')!;
      expect(Object.keys(customer).sort()).toEqual(['@metadata', 'balance', 'name']);
      expect(summary.some((r) => new URL(r['@metadata'].href).pathname.includes('/purchaseorder_audit/'))).toBe(false);
      const audits = await full
        .get(`/purchaseorder_audit?filter=${encodeURIComponent(`order_number = ${order.order_number}`)}`)
        .expect(200);
      expect(audits.body.length).toBeGreaterThan(0);
    });

    it('a token without the global its role filter needs sees no rows', async () => {
      const api = await apiWithRoles(t, ['Sales rep']);
      expect((await api.get('/purchaseorder').expect(200)).body).toEqual([]);
    });
  });

  describe('columns', () => {
    it('hides columns the roles do not list, in lists, single reads and txsummary', async () => {
      const list = await sam.get('/customer?pagesize=1').expect(200);
      expect(Object.keys(list.body[0]).sort()).toEqual(['@metadata', 'balance', 'name']);
      const single = await one(sam, '/customer/Alpha%20and%20Sons');
      expect(single.credit_limit).toBeUndefined();
    });

    it.each([
      ['filter', `filter=${encodeURIComponent('credit_limit > 1000')}`],
      ['sysfilter', `sysfilter=${encodeURIComponent('greater(credit_limit:1000)')}`],
      ['order', `order=${encodeURIComponent('credit_limit desc')}`],
      ['sysorder', `sysorder=${encodeURIComponent('(credit_limit:desc)')}`],
    ])('refuses a hidden column in %s (400 / 4003), so it cannot be probed', async (_label, query) => {
      const res = await sam.get(`/customer?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.errorCode).toBe(4003);
    });

    it('the union of two roles that each grant half: rows of both, columns per row', async () => {
      const api = await apiWithRoles(t, ['Cheap products', 'Dear products']);
      const res = await api.get('/product?pagesize=100').expect(200);
      const rows = res.body as Row[];
      const all = (await full.get('/product?pagesize=100').expect(200)).body as Row[];
      expect(rows.map((r) => r.product_number)).toEqual(all.map((r) => r.product_number));
      for (const row of rows) {
        const price = Number(all.find((a) => a.product_number === row.product_number)!.price);
        if (price < 20) expect(Object.keys(row).sort()).toEqual(['@metadata', 'name', 'product_number']);
        else expect(Object.keys(row).sort()).toEqual(['@metadata', 'price', 'product_number']);
      }
      const cheapOnly = await apiWithRoles(t, ['Cheap products']);
      const cheap = (await cheapOnly.get('/product?pagesize=100').expect(200)).body as Row[];
      expect(cheap.length).toBeLessThan(rows.length);
      expect(cheap.every((r) => !('price' in r))).toBe(true);
    });

    it('refuses writing a column outside the writable list (400 / 4003)', async () => {
      const taker = await apiWithRoles(t, ['Order taker']);
      const res = await taker.post('/purchaseorder', { customer_name: 'Bravo Supply', salesrep_id: 1, notes: 'rush' });
      expect(res.status).toBe(400);
      expect(res.body.errorCode).toBe(4003);
      expect(res.body.errorMessage).toContain('"notes"');
    });
  });

  describe('the admin API and roles', () => {
    it('lists the roles, read-only', async () => {
      const res = await t
        .http()
        .get('/admin/v1/roles')
        .set(...(await adminHeader(t)))
        .expect(200);
      expect(res.body.map((r: { name: string }) => r.name)).toEqual(expect.arrayContaining(['Full access', 'Read only', 'Sales rep']));
    });

    it('refuses to assign a role the project does not define', async () => {
      const user = await t
        .http()
        .post('/admin/v1/users')
        .set(...(await adminHeader(t)))
        .send({ login: 'newbie', password: 'Password-9', roles: ['Superuser'] });
      expect(user.status).toBe(400);
      expect(user.body.errorMessage).toMatch(/Superuser/);
      const token = await t
        .http()
        .post('/admin/v1/tokens')
        .set(...(await adminHeader(t)))
        .send({ label: 'x', roles: ['Read only', 'Root'] });
      expect(token.status).toBe(400);
      expect(token.body.errorMessage).toMatch(/Root/);
    });
  });
});
