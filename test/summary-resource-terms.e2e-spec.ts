import { apiAs, apiWithRoles, type Api } from './support/api.js';
import { demoProject } from '../src/demo/project.js';
import { demoResources } from '../src/demo/resources.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

/**
 * Issue 26, item 2: txsummary and rulesummary objects in the written resource's terms (LAC: summary
 * objects "are coerced into the types designated in the updating resource"). A row the body held
 * at a level: the level's path as `@metadata.resource`, its href `<base>/<level path>/<key>`, its
 * attribute names and only its attributes. Any other row (a rule's): `main:<table>` with the
 * table's href and columns. In both, only what the caller may read.
 */

/** The demo's Customers → Orders → Lineitems again, with aliases, and levels that leave columns out. */
const accounts = {
  name: 'Accounts',
  entity: 'customer',
  attributes: ['name', { name: 'Owed', column: 'balance' }],
  children: [
    {
      name: 'Orders',
      entity: 'purchaseorder',
      attributes: [
        { name: 'Number', column: 'order_number' },
        'customer_name',
        { name: 'Total', column: 'amount_total' },
        { name: 'Note', column: 'notes' },
      ],
      children: [
        {
          name: 'Lineitems',
          entity: 'lineitem',
          attributes: [
            { name: 'Id', column: 'lineitem_id' },
            'product_number',
            { name: 'Qty', column: 'qty_ordered' },
            { name: 'Amount', column: 'amount' },
          ],
        },
      ],
    },
  ],
};

const project: ProjectDefinition = {
  ...demoProject,
  resources: [...demoResources, accounts],
  roles: {
    ...demoProject.roles,
    roles: [
      ...demoProject.roles.roles,
      {
        // Writes orders and line items; may not read an order's notes, a customer's credit limit, an audit row's notes.
        name: 'Discreet clerk',
        defaultAccess: 'NONE',
        resources: {
          customer: { access: ['READ'], readColumns: ['name', 'balance'] },
          purchaseorder: { access: ['ALL'], readColumns: ['order_number', 'customer_name', 'salesrep_id', 'amount_total', 'paid'] },
          lineitem: { access: ['ALL'] },
          product: { access: ['READ'] },
          purchaseorder_audit: { access: ['READ'], readColumns: ['audit_number', 'order_number', 'amount_total'] },
        },
      },
    ],
  },
};

type Meta = { href: string; resource: string; verb: string; checksum?: string };
type Row = Record<string, unknown> & { '@metadata': Meta };
interface Fired {
  type: string;
  attribute?: string;
  name: string;
}
interface RuleEntry {
  '@metadata': Meta;
  rules: Fired[];
}
interface Written {
  statusCode: number;
  txsummary: Row[];
  rulesummary?: RuleEntry[];
}

const ORDER_COLUMNS = ['order_number', 'customer_name', 'salesrep_id', 'amount_total', 'paid', 'amount_paid', 'amount_owed', 'notes'];
const LINEITEM_COLUMNS = ['lineitem_id', 'order_number', 'product_number', 'qty_ordered', 'product_price', 'amount'];

describeEachTarget('transaction summaries in the written resource’s terms', (target) => {
  let t: TestApp;
  let demo: Api;
  let clerk: Api;

  suiteApp(target, { project }, async (app) => {
    t = app;
    demo = await apiAs(t, 'demo');
    clerk = await apiWithRoles(t, ['Discreet clerk']);
    await demo.post('/customer', { name: 'Terms Co', credit_limit: 100000 }).expect(201);
  });

  const of = (body: Written, resource: string): Row[] => body.txsummary.filter((r) => r['@metadata'].resource === resource);
  const one = (body: Written, resource: string): Row => {
    const rows = of(body, resource);
    expect(rows).toHaveLength(1);
    return rows[0]!;
  };
  const resources = (body: { txsummary?: Row[]; rulesummary?: RuleEntry[] }, list: 'txsummary' | 'rulesummary'): string[] =>
    (body[list] ?? []).map((r) => `${r['@metadata'].resource}:${r['@metadata'].verb}`).sort();
  const keys = (row: Row): string[] => Object.keys(row).filter((k) => k !== '@metadata');
  /** The href's path after the API base. */
  const pathOf = (row: Row | RuleEntry): string => new URL(row['@metadata'].href).pathname.replace(/^\/rest\/[^/]+\/[^/]+\/[^/]+\//, '');
  /** GET of a summary row's href answers that row with the same checksum. */
  const sameAsGet = async (api: Api, row: Row): Promise<void> => {
    const got = (await api.get(`/${pathOf(row)}`).expect(200)).body as Row[];
    expect(got).toHaveLength(1);
    expect(got[0]!['@metadata'].checksum).toBe(row['@metadata'].checksum);
  };

  it('LAC’s nested case: POST Customers.Orders with one line item lists the order and the line item under their levels, the rules’ rows as main:<table>', async () => {
    const res = await demo
      .post('/Customers.Orders?rulesummary=true', {
        customer_name: 'Terms Co',
        notes: 'one item',
        Lineitems: [{ product_number: 1, qty_ordered: 2 }],
      })
      .expect(201);
    const body = res.body as Written;
    expect(resources(body, 'txsummary')).toEqual([
      'Customers.Orders.Lineitems:INSERT',
      'Customers.Orders:INSERT',
      'main:customer:UPDATE',
      'main:purchaseorder_audit:INSERT',
    ]);
    const order = one(body, 'Customers.Orders');
    expect(pathOf(order)).toBe(`Customers.Orders/${order.order_number as number}`);
    expect(keys(order)).toEqual(ORDER_COLUMNS);
    expect(order).toMatchObject({ customer_name: 'Terms Co', notes: 'one item', amount_total: 20 });
    const item = one(body, 'Customers.Orders.Lineitems');
    expect(pathOf(item)).toBe(`Customers.Orders.Lineitems/${item.lineitem_id as number}`);
    expect(keys(item)).toEqual(LINEITEM_COLUMNS);
    const customer = one(body, 'main:customer');
    expect(pathOf(customer)).toBe('customer/Terms%20Co');
    expect(keys(customer)).toEqual(['name', 'balance', 'credit_limit']);
    const audit = one(body, 'main:purchaseorder_audit');
    expect(pathOf(audit)).toBe(`purchaseorder_audit/${audit.audit_number as number}`);
    expect(audit.order_number).toBe(order.order_number);
    // Each href is the row's URL, and a GET there answers the checksum the summary gave.
    for (const row of [order, item, customer, audit]) await sameAsGet(demo, row);

    // The rule summary names the same rows the same way.
    const rules = body.rulesummary!;
    expect(rules.map((r) => r['@metadata'].href).every((href) => body.txsummary.some((row) => row['@metadata'].href === href))).toBe(true);
    const ruleOf = (resource: string): RuleEntry => rules.find((r) => r['@metadata'].resource === resource)!;
    expect(ruleOf('Customers.Orders').rules).toContainEqual(expect.objectContaining({ type: 'sum', attribute: 'amount_total' }));
    expect(ruleOf('Customers.Orders.Lineitems').rules).toContainEqual(expect.objectContaining({ type: 'formula', attribute: 'amount' }));
    expect(ruleOf('main:customer').rules).toContainEqual(expect.objectContaining({ type: 'sum', attribute: 'balance' }));
    expect(rules.some((r) => ['purchaseorder', 'lineitem', 'customer'].includes(r['@metadata'].resource))).toBe(false);
  });

  it('a row the body held keeps the level’s terms after a rule changed it: the new customer of a POST Customers, its balance summed', async () => {
    const res = await demo
      .post('/Customers', { name: 'Terms Two', credit_limit: 5000, Orders: [{ Lineitems: [{ product_number: 2, qty_ordered: 1 }] }] })
      .expect(201);
    const body = res.body as Written;
    expect(resources(body, 'txsummary')).toEqual([
      'Customers.Orders.Lineitems:INSERT',
      'Customers.Orders:INSERT',
      'Customers:INSERT',
      'main:purchaseorder_audit:INSERT',
    ]);
    const customer = one(body, 'Customers');
    expect(pathOf(customer)).toBe('Customers/Terms%20Two');
    expect(customer.balance).toBe(25);
    await sameAsGet(demo, customer);
  });

  it('aliases: only the level’s attributes, under its names; a rule’s attribute by its alias, a rule on a column the level leaves out not at all', async () => {
    const res = await demo
      .post('/Accounts.Orders?rulesummary=true', { customer_name: 'Terms Co', Lineitems: [{ product_number: 1, Qty: 3 }] })
      .expect(201);
    const body = res.body as Written;
    const order = one(body, 'Accounts.Orders');
    expect(pathOf(order)).toBe(`Accounts.Orders/${order.Number as number}`);
    expect(keys(order)).toEqual(['Number', 'customer_name', 'Total', 'Note']);
    expect(order.Total).toBe(30);
    const item = one(body, 'Accounts.Orders.Lineitems');
    expect(pathOf(item)).toBe(`Accounts.Orders.Lineitems/${item.Id as number}`);
    expect(keys(item)).toEqual(['Id', 'product_number', 'Qty', 'Amount']);
    expect(one(body, 'main:customer')).toMatchObject({ name: 'Terms Co' });
    one(body, 'main:purchaseorder_audit');
    for (const row of [order, item]) await sameAsGet(demo, row);

    const rules = body.rulesummary!;
    const itemRules = rules.find((r) => r['@metadata'].resource === 'Accounts.Orders.Lineitems')!;
    expect(pathOf(itemRules)).toBe(pathOf(item));
    // amount is shown as Amount; product_price (copied from the product) is not an attribute of the level.
    expect(itemRules.rules).toContainEqual(expect.objectContaining({ type: 'formula', attribute: 'Amount' }));
    expect(itemRules.rules.some((r) => r.type === 'copy')).toBe(false);
    const orderRules = rules.find((r) => r['@metadata'].resource === 'Accounts.Orders')!;
    expect(orderRules.rules).toContainEqual(expect.objectContaining({ type: 'sum', attribute: 'Total' }));
  });

  it('rulelog names firings in the same terms: attributes and keys by alias, none on a column the level leaves out', async () => {
    const res = await demo
      .post('/Accounts.Orders?rulelog=true', { customer_name: 'Terms Co', Lineitems: [{ product_number: 1, Qty: 2 }] })
      .expect(201);
    type Firing = Fired & { '@metadata'?: Meta; key?: Record<string, unknown>; old?: unknown; new?: unknown };
    const firings = res.body.rulelog as Firing[];
    const at = (resource: string) => firings.filter((f) => f['@metadata']?.resource === resource);
    expect(at('Accounts.Orders.Lineitems').find((f) => f.type === 'formula')).toMatchObject({
      attribute: 'Amount',
      key: { Id: expect.any(Number) },
      old: null,
      new: 20,
    });
    // product_price, which the copy sets, is not an attribute of the level.
    expect(at('Accounts.Orders.Lineitems').some((f) => f.type === 'copy')).toBe(false);
    expect(at('Accounts.Orders').find((f) => f.type === 'sum')).toMatchObject({
      attribute: 'Total',
      key: { Number: expect.any(Number) },
      old: 0,
      new: 20,
    });
    expect(at('main:customer').find((f) => f.type === 'sum')).toMatchObject({ attribute: 'balance', key: { name: 'Terms Co' } });
  });

  it('a role that hides columns: neither the level’s rows nor the rules’ rows show them, in either summary', async () => {
    const res = await clerk
      .post('/Customers.Orders?rulesummary=true', { customer_name: 'Terms Co', Lineitems: [{ product_number: 1, qty_ordered: 1 }] })
      .expect(201);
    const body = res.body as Written;
    expect(resources(body, 'txsummary')).toEqual([
      'Customers.Orders.Lineitems:INSERT',
      'Customers.Orders:INSERT',
      'main:customer:UPDATE',
      'main:purchaseorder_audit:INSERT',
    ]);
    expect(keys(one(body, 'Customers.Orders'))).toEqual(['order_number', 'customer_name', 'salesrep_id', 'amount_total', 'paid']);
    expect(keys(one(body, 'main:customer'))).toEqual(['name', 'balance']);
    expect(keys(one(body, 'main:purchaseorder_audit'))).toEqual(['audit_number', 'order_number', 'amount_total']);
    for (const row of body.txsummary) await sameAsGet(clerk, row);

    const aliased = await clerk
      .post('/Accounts.Orders?rulesummary=true', { customer_name: 'Terms Co', Lineitems: [{ product_number: 1, Qty: 1 }] })
      .expect(201);
    const second = aliased.body as Written;
    expect(keys(one(second, 'Accounts.Orders'))).toEqual(['Number', 'customer_name', 'Total']);
    expect(keys(one(second, 'main:customer'))).toEqual(['name', 'balance']);
    const hidden = ['notes', 'Note', 'credit_limit'];
    for (const entry of [...body.rulesummary!, ...second.rulesummary!]) {
      for (const rule of entry.rules) expect(hidden).not.toContain(rule.attribute);
    }
  });

  it('a table resource’s own rows keep its plain name; the rows its rules change are main:<table>', async () => {
    const order = one(
      (await demo.post('/OrderEntry', { customer_name: 'Terms Co', Lineitems: [] }).expect(201)).body as Written,
      'OrderEntry',
    );
    const res = await demo
      .post('/lineitem?rulesummary=true', { order_number: order.order_number, product_number: 1, qty_ordered: 1 })
      .expect(201);
    const body = res.body as Written;
    expect(resources(body, 'txsummary')).toEqual([
      'lineitem:INSERT',
      'main:customer:UPDATE',
      'main:purchaseorder:UPDATE',
      'main:purchaseorder_audit:INSERT',
    ]);
    expect(pathOf(one(body, 'lineitem'))).toMatch(/^lineitem\/\d+$/);
    expect(pathOf(one(body, 'main:purchaseorder'))).toBe(`purchaseorder/${order.order_number as number}`);
    expect(resources(body, 'rulesummary')).toEqual(['lineitem:INSERT', 'main:customer:UPDATE', 'main:purchaseorder:UPDATE']);
  });

  it('DELETE on a level names the deleted row by the level, the rows rules change by their tables', async () => {
    const created = (
      await demo.post('/Customers.Orders', { customer_name: 'Terms Co', Lineitems: [{ product_number: 2, qty_ordered: 1 }] }).expect(201)
    ).body as Written;
    const order = one(created, 'Customers.Orders');
    const res = await demo.delete(`/Customers.Orders/${order.order_number as number}?checksum=${order['@metadata'].checksum!}`).expect(200);
    const body = res.body as Written;
    const deleted = one(body, 'Customers.Orders');
    expect(deleted['@metadata'].verb).toBe('DELETE');
    expect(pathOf(deleted)).toBe(`Customers.Orders/${order.order_number as number}`);
    expect(of(body, 'main:customer').map((r) => r['@metadata'].verb)).toEqual(['UPDATE']);
    expect(body.txsummary.every((r) => r === deleted || r['@metadata'].resource.startsWith('main:'))).toBe(true);
  });
});
