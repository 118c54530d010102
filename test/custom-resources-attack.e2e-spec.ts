import { demoProject } from '../src/demo/project.js';
import { demoResources } from '../src/demo/resources.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import type { CustomResourceDefinition } from '../src/documents/levels/custom-resource-definition.js';
import { apiAs, apiWithKey, type Api } from './support/api.js';
import { createManualToken } from './support/auth.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

/**
 * A hostile client with a low-privilege token against custom resources (README, "Custom
 * resources", "Roles"): nothing it cannot read may be inferred from any answer — values,
 * errors, counts, ordering, next_batch links, hrefs.
 */

type Obj = Record<string, unknown> & { '@metadata': { href: string; checksum: string; next_batch?: string } };

const ALPHA = 'Alpha%20and%20Sons';
const q = (text: string): string => encodeURIComponent(text);

/** A resource whose fixed orders, named filters and sub-levels lean on columns some roles cannot read. */
const ranked: CustomResourceDefinition = {
  name: 'Ranked',
  entity: 'customer',
  attributes: ['name', { name: 'Owed', column: 'balance' }, { name: 'Limit', column: 'credit_limit' }],
  order: 'credit_limit desc',
  children: [
    {
      name: 'Orders',
      entity: 'purchaseorder',
      via: 'customer',
      order: 'salesrep_id desc',
      parents: [{ name: 'Rep', entity: 'employee', via: 'salesrep', attributes: ['name'] }],
      children: [{ name: 'Lineitems', entity: 'lineitem', parents: [{ name: 'Product', entity: 'product', attributes: ['name'] }] }],
    },
  ],
  userFilters: { limitAbove: 'Limit > :x', owes: 'Owed >= :min' },
  userOrders: { byLimit: 'Limit desc' },
};

const attackProject: ProjectDefinition = {
  ...demoProject,
  resources: [...demoResources, ranked],
  roles: {
    ...demoProject.roles,
    roles: [
      ...demoProject.roles.roles,
      {
        // Reads every table, but not the columns that link an order to its rep and a line item to its product.
        name: 'Hidden links',
        defaultAccess: 'NONE',
        resources: {
          customer: { access: ['READ'] },
          purchaseorder: { access: ['READ'], readColumns: ['order_number', 'customer_name', 'amount_total', 'paid', 'notes'] },
          lineitem: { access: ['READ'], readColumns: ['lineitem_id', 'order_number', 'qty_ordered', 'amount'] },
          product: { access: ['READ'] },
          employee: { access: ['READ'] },
        },
      },
      {
        // With Hidden links: every column of one's own orders only.
        name: 'Own orders whole',
        defaultAccess: 'NONE',
        resources: { purchaseorder: { access: ['READ'], rowFilter: 'salesrep_id = @{employee_id}' } },
      },
      {
        // Reads orders, but not which customer each belongs to.
        name: 'Hidden owner',
        defaultAccess: 'NONE',
        resources: {
          customer: { access: ['READ'] },
          purchaseorder: { access: ['READ'], readColumns: ['order_number', 'amount_total', 'paid', 'notes'] },
          lineitem: { access: ['READ'] },
        },
      },
    ],
  },
};

describeEachTarget('custom resources: a hostile reader', (target) => {
  let t: TestApp;
  let demo: Api;
  let sam: Api;
  let links: Api;
  let owner: Api;

  suiteApp(target, { project: attackProject }, async (app) => {
    t = app;
    demo = await apiAs(app, 'demo');
    sam = await apiAs(app, 'sam');
    links = apiWithKey(app, await createManualToken(app, { roles: ['Hidden links'] }));
    owner = apiWithKey(app, await createManualToken(app, { roles: ['Hidden owner'] }));
  });

  const names = (rows: Obj[]): unknown[] => rows.filter((r) => r.name !== undefined).map((r) => r.name);

  it("does not order by a column the caller cannot read, even when the resource's fixed order names it", async () => {
    const byKey = names((await demo.get('/customer?pagesize=100&order=name').expect(200)).body as Obj[]);
    const byLimit = names((await demo.get('/Ranked?pagesize=100').expect(200)).body as Obj[]);
    expect(byLimit).not.toEqual(byKey); // the fixed order does order, for a reader of credit_limit
    const asSam = (await sam.get('/Ranked?pagesize=100').expect(200)).body as Obj[];
    expect(asSam.every((c) => c.Limit === undefined)).toBe(true);
    expect(names(asSam)).toEqual(byKey);
    // A level's fixed order on a hidden column: the orders come by key.
    const alpha = ((await links.get(`/Ranked/${ALPHA}`).expect(200)).body as Obj[])[0]!;
    expect((alpha.Orders as Obj[]).map((o) => o.order_number)).toEqual([1, 13]);
    const asDemo = ((await demo.get(`/Ranked/${ALPHA}`).expect(200)).body as Obj[])[0]!;
    expect((asDemo.Orders as Obj[]).map((o) => o.order_number)).toEqual([13, 1]);
  });

  it('refuses filters, orders and named ones on hidden columns, by alias, parent path or sysorder', async () => {
    for (const path of [
      `/Ranked?filter=${q('Limit > 0')}`,
      `/Ranked?sysfilter=${q('greater(Limit:0)')}`,
      `/Ranked?order=${q('Limit desc')}`,
      `/Ranked?sysorder=${q('(Limit:desc)')}`,
      `/Ranked?sysorder=${q('(Limit:asc_uc)')}`,
      `/Ranked?userfilter=${q('limitAbove(x:1)')}`,
      '/Ranked?userorder=byLimit',
      `/Ranked?filter=${q('credit_limit > 0')}`,
      `/Customers?filter=${q('credit_limit > 0')}`,
      `/Customers?order=${q('credit_limit')}`,
      `/Customers?filter.Orders=${q('customer.credit_limit > 0')}`,
      `/Customers?order.Orders=${q('customer.credit_limit desc')}`,
      `/Customers?sysorder.Orders=${q('(customer.credit_limit:desc)')}`,
      `/Customers?filter.Orders.Lineitems=${q('purchaseorder.customer.credit_limit > 0')}`,
      `/Customers.Orders?filter=${q('customer.credit_limit > 0')}`,
      `/Customers.Orders?parent=${ALPHA}&filter=${q('customer.credit_limit > 0')}`,
    ]) {
      const res = await sam.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect([4001, 4003]).toContain(res.body.errorCode);
    }
    // The same message for a hidden attribute as for one that does not exist.
    const hidden = (await sam.get(`/Ranked?filter=${q('Limit > 0')}`).expect(400)).body.errorMessage as string;
    const none = (await sam.get(`/Ranked?filter=${q('Nosuch > 0')}`).expect(400)).body.errorMessage as string;
    expect(hidden.replace('Limit', 'X')).toBe(none.replace('Nosuch', 'X'));
    expect((await sam.get(`/Ranked?userfilter=${q('owes(min:0)')}&pagesize=1`).expect(200)).body.length).toBeGreaterThan(0);
  });

  it('leaves out a sub-level that would reveal a link column the caller cannot read', async () => {
    const alpha = ((await links.get(`/Ranked/${ALPHA}`).expect(200)).body as Obj[])[0]!;
    const orders = alpha.Orders as Obj[];
    expect(orders.length).toBe(2);
    for (const order of orders) {
      expect(order).not.toHaveProperty('salesrep_id');
      expect(order).not.toHaveProperty('Rep');
      for (const item of order.Lineitems as Obj[]) {
        expect(item).not.toHaveProperty('product_number');
        expect(item).not.toHaveProperty('Product');
      }
    }
    // Nor through parent= of the level rooted there.
    expect((await links.get('/Ranked.Orders.Rep?parent=1').expect(200)).body).toEqual([]);
    expect((await links.get('/Ranked.Orders.Lineitems.Product?parent=1').expect(200)).body).toEqual([]);
    // Orders whose customer the caller may not read are not placed under a customer.
    const hidden = ((await owner.get(`/Customers/${ALPHA}`).expect(200)).body as Obj[])[0]!;
    expect(hidden).not.toHaveProperty('Orders');
    expect((await owner.get(`/Customers.Orders?parent=${ALPHA}`).expect(200)).body).toEqual([]);
    expect(((await owner.get('/Customers.Orders/1').expect(200)).body as Obj[])[0]).not.toHaveProperty('customer_name');
    // Nor through @metadata.links.
    const hrefs = (o: Obj): string[] => ((o['@metadata'] as { links?: Array<{ href: string }> }).links ?? []).map((l) => l.href);
    for (const order of orders) {
      expect(hrefs(order).filter((h) => h.includes('/employee/'))).toEqual([]);
      for (const item of order.Lineitems as Obj[]) expect(hrefs(item).filter((h) => h.includes('/product/'))).toEqual([]);
    }
    const rooted = ((await owner.get('/Customers.Orders/1').expect(200)).body as Obj[])[0]!;
    expect(hrefs(rooted).filter((h) => h.includes('/customer'))).toEqual([]);
    const fullOrder = ((await demo.get('/Customers.Orders/1').expect(200)).body as Obj[])[0]!;
    expect(hrefs(fullOrder).filter((h) => h.includes('/customer/'))).toHaveLength(1);
    // The Full access user still gets all of it.
    const full = ((await demo.get(`/Ranked/${ALPHA}`).expect(200)).body as Obj[])[0]!;
    expect(((full.Orders as Obj[])[1]!.Rep as Obj).name).toBe('Sam Sales');
    expect(((await demo.get('/Ranked.Orders.Lineitems.Product?parent=1').expect(200)).body as Obj[]).length).toBe(1);
  });

  it('where only row-filtered grants show a link column, shows the sub-level and orders by it only on those rows', async () => {
    const mixed = apiWithKey(t, await createManualToken(t, { roles: ['Hidden links', 'Own orders whole'], globals: { employee_id: 1 } }));
    const alpha = ((await mixed.get(`/Ranked/${ALPHA}`).expect(200)).body as Obj[])[0]!;
    const [own, other] = alpha.Orders as Obj[];
    expect([own!.order_number, other!.order_number]).toEqual([1, 13]);
    expect(own!.salesrep_id).toBe(1);
    expect((own!.Rep as Obj).name).toBe('Sam Sales');
    expect(other).not.toHaveProperty('salesrep_id');
    expect(other).not.toHaveProperty('Rep');
    expect(((await mixed.get('/Ranked.Orders.Rep?parent=1').expect(200)).body as Obj[]).map((r) => r.name)).toEqual(['Sam Sales']);
    expect((await mixed.get('/Ranked.Orders.Rep?parent=13').expect(200)).body).toEqual([]);
  });

  it('parent= of an owner row the caller cannot see answers as one that does not exist, next_batch included', async () => {
    for (const pagesize of [1, 20]) {
      const hidden = await sam.get(`/Customers.Orders.Lineitems?parent=13&pagesize=${pagesize}`).expect(200);
      const none = await sam.get(`/Customers.Orders.Lineitems?parent=999999&pagesize=${pagesize}`).expect(200);
      expect(hidden.body).toEqual([]);
      expect(none.body).toEqual([]);
      expect((await sam.get(`/OrderEntry.Lineitems?parent=13&pagesize=${pagesize}`).expect(200)).body).toEqual([]);
    }
    expect((await sam.get('/OrderEntry/13').expect(200)).body).toEqual([]);
    // An owner table the caller may not read at all: its level is 403, and parent= on the level below finds nothing.
    const ordersOnly = apiWithKey(t, await createManualToken(t, { roles: ['Own orders whole'], globals: { employee_id: 1 } }));
    expect((await ordersOnly.get(`/Customers/${ALPHA}`).expect(403)).body.errorCode).toBe(4030);
    expect((await ordersOnly.get(`/Customers.Orders?parent=${ALPHA}&pagesize=1`).expect(200)).body).toEqual([]);
    expect(((await ordersOnly.get('/Customers.Orders').expect(200)).body as Obj[]).map((o) => o.order_number)).toEqual([1, 6, 11, 16]);
    expect((await ordersOnly.get('/Customers.Orders.Lineitems?parent=1').expect(403)).body.errorCode).toBe(4030);
    const bad = await sam.get('/Customers.Orders.Lineitems?parent=abc');
    const bad2 = await demo.get('/Customers.Orders.Lineitems?parent=abc');
    expect(bad.status).toBe(bad2.status);
  });

  it("pages count only the rows the caller may read: no next_batch for another rep's orders", async () => {
    // Alpha has order 1 (sam's) and order 13 (another rep's).
    const alpha = ((await sam.get(`/Customers/${ALPHA}?pagesize=1`).expect(200)).body as Obj[])[0]!;
    expect(alpha.Orders).toHaveLength(1);
    expect((alpha.Orders as Obj[])[0]!.order_number).toBe(1);
    const root = (await sam.get('/Customers.Orders?pagesize=4').expect(200)).body as Obj[];
    expect(root.map((o) => o.order_number)).toEqual([1, 6, 11, 16]);
    // An order the caller cannot read is not ranked among its own: offset pages only over visible rows.
    const second = (await sam.get('/Customers.Orders?pagesize=1&offset=1').expect(200)).body as Obj[];
    expect(second[0]!.order_number).toBe(6);
  });

  it('the value route answers a hidden row as a missing one, and a hidden column as an unknown one, on every level and alias', async () => {
    const same = async (a: string, b: string, status: number): Promise<void> => {
      const [x, y] = [await sam.get(a), await sam.get(b)];
      expect({ a, status: x.status, code: x.body.errorCode }).toEqual({ a, status, code: y.body.errorCode });
      expect(y.status).toBe(status);
    };
    await same('/Customers.Orders/13/notes', '/Customers.Orders/999999/notes', 404);
    await same('/OrderEntry/13/notes', '/OrderEntry/999999/notes', 404);
    await same('/Customers.Orders.Lineitems/25/qty_ordered', '/Customers.Orders.Lineitems/999999/qty_ordered', 404);
    await same(`/Ranked/${ALPHA}/Limit`, `/Ranked/${ALPHA}/Nosuch`, 400);
    await same(`/Ranked/${ALPHA}/credit_limit`, `/Ranked/${ALPHA}/Nosuch`, 400);
    await same(`/Customers/${ALPHA}/credit_limit`, `/Customers/${ALPHA}/Nosuch`, 400);
    expect((await links.get('/Ranked.Orders/1/salesrep_id').expect(400)).body.errorCode).toBe(4003);
    expect((await links.get('/Ranked.Orders.Lineitems/1/product_number').expect(400)).body.errorCode).toBe(4003);
    expect((await sam.get(`/Ranked/${ALPHA}/Owed`).expect(200)).text).toMatch(/^\d/);
    expect((await sam.get('/Customers.Orders/1/notes').expect(200)).text).toBe('Order 1');
    expect((await sam.get('/Customers.ORDERS/1/notes').expect(200)).text).toBe('Order 1');
  });

  it("nested checksums are the rows' keyed MACs, the same as the table resources give", async () => {
    const nested = ((await sam.get(`/Customers/${ALPHA}`).expect(200)).body as Obj[])[0]!;
    const table = ((await sam.get(`/customer/${ALPHA}`).expect(200)).body as Obj[])[0]!;
    expect(nested['@metadata'].checksum).toBe(table['@metadata'].checksum);
    expect(nested['@metadata'].checksum).toMatch(/^R:[0-9a-f]{16}$/);
    const order = (nested.Orders as Obj[])[0]!;
    expect(order['@metadata'].checksum).toBe(((await sam.get('/purchaseorder/1').expect(200)).body as Obj[])[0]!['@metadata'].checksum);
  });

  it('path tricks name the level they spell or nothing: case, empty segments, encoded dots, long paths', async () => {
    expect(((await sam.get('/customers.ORDERS/1').expect(200)).body as Obj[])[0]!.order_number).toBe(1);
    expect((await sam.get('/CUSTOMERS.orders/13').expect(200)).body).toEqual([]);
    expect((await sam.get('/Customers%2EOrders/13').expect(200)).body).toEqual([]);
    expect(((await sam.get('/Customers%2eOrders/1').expect(200)).body as Obj[])[0]!.order_number).toBe(1);
    for (const path of [
      '/Customers..Orders',
      '/Customers.',
      '/.Customers',
      '/Customers.Orders.',
      '/Customers.Orders.Lineitems.Product.Lineitems',
      `/${'Customers.'.repeat(200)}Orders`,
      '/Customers%2E%2EOrders',
    ]) {
      const res = await sam.get(path);
      expect({ path, status: res.status, code: res.body.errorCode }).toEqual({ path, status: 404, code: 4040 });
    }
    // A level whose table the caller may not read: 403 on its path, whatever its case.
    expect((await owner.get('/customers.orders.LINEITEMS.product').expect(403)).body.errorCode).toBe(4030);
  });

  it('named filters bind their values: quotes, comments, parentheses, wrong types, many and huge values', async () => {
    const status = async (call: string): Promise<[number, number | undefined]> => {
      const res = await sam.get(`/Customers?pagesize=100&userfilter=${q(call)}`);
      return [res.status, res.status === 200 ? (res.body as unknown[]).length : res.body.errorCode];
    };
    expect(await status("named(name:'x'' or 1=1 --')")).toEqual([200, 0]);
    expect(await status("named(name:'x/*')")).toEqual([200, 0]);
    expect(await status("named(name:'Alpha and Sons')")).toEqual([200, 1]);
    expect(await status("named(name:'Alpha and Sons'))")).toEqual([400, 4001]);
    expect(await status("named(name:(('Alpha and Sons')))")).toEqual([400, 4001]);
    expect(await status('named(name:credit_limit)')).toEqual([400, 4001]);
    expect(await status('named(name:@{employee_id})')).toEqual([400, 4001]);
    expect(await status("named(name:'a') or 1=1")).toEqual([400, 4001]);
    expect((await status("balanceAtLeast(min:'many')"))[0]).toBe(400);
    expect((await status('balanceAtLeast(min:1e400)'))[0]).toBe(400);
    expect(await status(`balanceAtLeast(min:0, ${Array.from({ length: 40 }, (_, i) => `p${i}:1`).join(', ')})`)).toEqual([400, 4000]);
    const huge = await status(`named(name:'${'x'.repeat(20_000)}')`);
    expect([400, 414]).toContain(huge[0]); // 414 from the front door on a URL that long
    // Longer than the column: matches nothing, as in a table's filter.
    expect(await status(`named(name:'${'x'.repeat(31)}')`)).toEqual([200, 0]);
    expect((await status(`named(name:'${'x'.repeat(5000)}')`))[0]).toBe(400);
  });

  it('per-level parameters spelt in two cases both apply; repeated too often they are refused', async () => {
    const both = (
      (await sam.get(`/Customers/${ALPHA}?filter.Orders=${q('order_number > 5')}&filter.orders=${q('paid = false')}`).expect(200))
        .body as Obj[]
    )[0]!;
    expect(both.Orders).toEqual([]);
    expect(
      (await sam.get(`/Customers/${ALPHA}?order.Orders=amount_total&order.ORDERS=${q('order_number desc')}`).expect(400)).body.errorCode,
    ).toBe(4000);
    const many = Array.from({ length: 17 }, () => `filter.Orders=${q('paid = false')}`).join('&');
    expect((await sam.get(`/Customers?${many}`).expect(400)).body.errorCode).toBe(4000);
    expect((await sam.get(`/Customers?filter.Orders=${q('x'.repeat(5000))}`).expect(400)).body.errorCode).toBe(4001);
  });

  it('pagesize 5000 at every level answers, bounded by the rows there are', async () => {
    const all = (await sam.get('/Customers?pagesize=5000').expect(200)).body as Obj[];
    expect(all.length).toBeGreaterThanOrEqual(30);
    expect(all.at(-1)!['@metadata'].next_batch).toBeUndefined();
    expect((await sam.get('/Customers?pagesize=5001').expect(400)).body.errorCode).toBe(4000);
  });
});

describeEachTarget('custom resources: the size of a document', (target) => {
  let demo: Api;
  let sam: Api;
  // PAGE_SIZE_MAX 5: a document holds at most 10 × 5 objects.
  suiteApp(target, { env: { PAGE_SIZE_DEFAULT: '5', PAGE_SIZE_MAX: '5' } }, async (app) => {
    demo = await apiAs(app, 'demo');
    sam = await apiAs(app, 'sam');
    await demo.post('/customer', { name: 'Deep Docs', credit_limit: 1_000_000 }).expect(201);
    const made = await demo
      .post(
        '/purchaseorder',
        Array.from({ length: 5 }, () => ({ customer_name: 'Deep Docs', salesrep_id: 2 })),
      )
      .expect(201);
    const orders = (made.body.txsummary as Obj[]).filter((e) => e['@metadata'].href.includes('/purchaseorder/')).map((e) => e.order_number);
    expect(orders).toHaveLength(5);
    await demo
      .post(
        '/lineitem',
        orders.flatMap((order_number) => Array.from({ length: 5 }, () => ({ order_number, product_number: 1, qty_ordered: 1 }))),
      )
      .expect(201);
  });

  it('refuses a document of more objects than the cap, pagesize at every level multiplying, counting only rows the caller may read', async () => {
    // 1 customer, 5 orders, 25 line items, 25 products: 56 objects.
    const big = await demo.get('/Customers/Deep%20Docs?pagesize=5').expect(400);
    expect(big.body.errorCode).toBe(4000);
    expect(big.body.errorMessage).toContain('50');
    expect((await demo.get('/Customers?pagesize=5&filter=' + q("name = 'Deep Docs'")).expect(400)).body.errorCode).toBe(4000);
    // 1 + 4 + 16 + 16 objects.
    const fits = ((await demo.get('/Customers/Deep%20Docs?pagesize=4').expect(200)).body as Obj[])[0]!;
    expect(fits.Orders).toHaveLength(5);
    // Another rep's orders count for nothing: the answer cannot tell how many there are.
    const asSam = ((await sam.get('/Customers/Deep%20Docs?pagesize=5').expect(200)).body as Obj[])[0]!;
    expect(asSam.Orders).toEqual([]);
  });
});
