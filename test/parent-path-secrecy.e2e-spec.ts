import { apiAs, apiWithRoles, type Api } from './support/api.js';
import { demoProjectWithRoles } from './support/demo-project.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

type Row = Record<string, unknown>;

/**
 * The demo roles plus roles that show a customer's credit limit on some customers only, and
 * roles that hide an order's customer: seeded credit limits are 9000 (Alpha and Sons) and
 * 2000 to 5000 for the others.
 */
const project = demoProjectWithRoles(
  [
    { name: 'Big customers', defaultAccess: 'NONE', resources: { customer: { access: ['READ'], rowFilter: 'credit_limit >= 4500' } } },
    {
      name: 'Customer names',
      defaultAccess: 'NONE',
      resources: { customer: { access: ['READ'], readColumns: ['name', 'balance'] }, purchaseorder: { access: ['READ'] } },
    },
    {
      name: 'One customer',
      defaultAccess: 'NONE',
      resources: { customer: { access: ['READ'], rowFilter: 'name = @{own_customer}' }, purchaseorder: { access: ['READ'] } },
    },
    {
      name: 'Order totals',
      defaultAccess: 'NONE',
      resources: { purchaseorder: { access: ['READ'], readColumns: ['order_number', 'amount_total'] }, customer: { access: ['READ'] } },
    },
  ],
  ['own_customer'],
);

const q = (text: string): string => encodeURIComponent(text);

describeEachTarget('parent paths in filters and orders name only what the caller can read', (target) => {
  let t: TestApp;
  let sam: Api;
  let demo: Api;

  suiteApp(target, { project }, async (app) => {
    t = app;
    sam = await apiAs(t, 'sam');
    demo = await apiAs(t, 'demo');
  });

  async function expectUnknownColumn(api: Api, path: string): Promise<string> {
    const res = await api.get(path);
    expect({ path, status: res.status, errorCode: res.body.errorCode }).toEqual({ path, status: 400, errorCode: 4003 });
    return res.body.errorMessage as string;
  }

  async function orderNumbers(api: Api, query: string): Promise<number[]> {
    const res = await api.get(`/purchaseorder?pagesize=100&${query}`).expect(200);
    return (res.body as Row[]).map((o) => o.order_number as number).sort((a, b) => a - b);
  }

  /** Orders whose customer meets `filter`, as someone who may read everything sees them. */
  async function ordersOfCustomers(filter: string): Promise<number[]> {
    const customers = new Set(
      ((await demo.get(`/customer?pagesize=100&filter=${q(filter)}`).expect(200)).body as Row[]).map((c) => c.name),
    );
    const orders = (await demo.get('/purchaseorder?pagesize=100').expect(200)).body as Row[];
    return orders
      .filter((o) => customers.has(o.customer_name))
      .map((o) => o.order_number as number)
      .sort((a, b) => a - b);
  }

  it('refuses a hidden parent column in filter, sysfilter, order and sysorder with 400 / 4003, as on the parent itself', async () => {
    const onParent = await expectUnknownColumn(sam, `/customer?filter=${q('credit_limit > 8999')}`);
    expect(onParent).toContain('credit_limit');
    for (const path of [
      `/purchaseorder?filter=${q('customer.credit_limit > 8999')}`,
      `/purchaseorder?filter=${q('8999 < customer.credit_limit')}`,
      `/purchaseorder?filter=${q('customer.credit_limit is null')}`,
      `/purchaseorder?sysfilter=${q('greater(customer.credit_limit:8999)')}`,
      `/purchaseorder?order=${q('customer.credit_limit')}`,
      `/purchaseorder?sysorder=${q('(customer.credit_limit:desc)')}`,
    ]) {
      expect(await expectUnknownColumn(sam, path)).toContain('customer.credit_limit');
    }
  });

  it("still takes the parent columns the caller can read, and the roles' own parent paths keep working", async () => {
    const rich = await orderNumbers(sam, `filter=${q('customer.balance > 100')}`);
    const samsOrders = await orderNumbers(sam, '');
    const expected = (await ordersOfCustomers('balance > 100')).filter((n) => samsOrders.includes(n));
    expect(rich).toEqual(expected);
    const items = (await sam.get(`/lineitem?pagesize=500&filter=${q('product.price > 20')}&order=${q('product.price desc')}`).expect(200))
      .body as Row[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((i) => samsOrders.includes(i.order_number as number))).toBe(true);
  });

  it('uses a parent column only where the caller may read it on that parent row (row filters with globals)', async () => {
    const api = await apiWithRoles(t, ['One customer'], { own_customer: 'Alpha and Sons' });
    const alphas = await ordersOfCustomers("name = 'Alpha and Sons'");
    expect(alphas.length).toBeGreaterThan(0);
    expect(await orderNumbers(api, `filter=${q('customer.credit_limit > 100')}`)).toEqual(alphas);
    expect(await orderNumbers(api, `filter=${q('100 < customer.credit_limit')}`)).toEqual(alphas);
    expect(await orderNumbers(api, `sysfilter=${q('greater(customer.credit_limit:100)')}`)).toEqual(alphas);
    expect(await orderNumbers(api, `filter=${q("customer.credit_limit < 100000 and customer.name <> 'x'")}`)).toEqual(alphas);
    const ordered = (await api.get(`/purchaseorder?pagesize=100&order=${q('customer.credit_limit desc')}`).expect(200)).body as Row[];
    expect(
      ordered
        .slice(0, alphas.length)
        .map((o) => o.order_number)
        .sort(),
    ).toEqual([...alphas].sort());
  });

  it('does not reveal a column on the parent rows whose granting role hides it (row filters and column lists differ)', async () => {
    const api = await apiWithRoles(t, ['Big customers', 'Customer names']);
    expect(await orderNumbers(api, `filter=${q('customer.credit_limit < 4500')}`)).toEqual([]);
    expect(await orderNumbers(api, `filter=${q('customer.credit_limit >= 4500')}`)).toEqual(
      await ordersOfCustomers('credit_limit >= 4500'),
    );
    // The same on the customers themselves: a credit limit is compared only where it is shown.
    const small = (await api.get(`/customer?pagesize=100&filter=${q('credit_limit < 4500')}`).expect(200)).body as Row[];
    expect(small).toEqual([]);
    expect((await api.get(`/customer?pagesize=100&sysfilter=${q('less(credit_limit:4500)')}`).expect(200)).body).toEqual([]);
    const shown = (await api.get(`/customer?pagesize=100&filter=${q('credit_limit >= 0')}`).expect(200)).body as Row[];
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.every((c) => Number(c.credit_limit) >= 4500)).toBe(true);
  });

  it('refuses a path through a relation column the caller cannot read on the row', async () => {
    const api = await apiWithRoles(t, ['Order totals']);
    await expectUnknownColumn(api, `/purchaseorder?filter=${q("customer.name = 'Alpha and Sons'")}`);
    await expectUnknownColumn(api, `/purchaseorder?order=${q('customer.balance')}`);
    await api.get(`/purchaseorder?filter=${q('amount_total > 0')}`).expect(200);
  });
});
