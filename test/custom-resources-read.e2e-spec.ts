import { Database, type DatabaseSession } from '../src/database/database.js';
import { demoProject } from '../src/demo/project.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import type { CustomResourceDefinition } from '../src/documents/levels/custom-resource-definition.js';
import { API_HOST, apiAs, apiWithKey, type Api } from './support/api.js';
import { createManualToken } from './support/auth.js';
import { describeEachTarget, startTestApp, suiteApp, testTargets, type TestApp } from './support/test-app.js';

type Obj = Record<string, unknown> & { '@metadata': { href: string; checksum: string; next_batch?: string } };

const ALPHA = 'Alpha%20and%20Sons';
const q = (text: string): string => encodeURIComponent(text);

/** Records every statement the app's database facade runs from now on. */
function recordStatements(t: TestApp): { statements: string[]; stop: () => void } {
  const database = t.app.get(Database);
  const original = database.read.bind(database);
  const statements: string[] = [];
  database.read = <T>(work: (session: DatabaseSession) => Promise<T>): Promise<T> =>
    original((session) =>
      work({
        manager: session.manager,
        query: (sql, values) => {
          statements.push(sql);
          return session.query(sql, values);
        },
      }),
    );
  return { statements, stop: () => void (database.read = original) };
}

function orderNumbers(customer: Obj): unknown[] {
  return (customer.Orders as Obj[]).filter((o) => o.order_number !== undefined).map((o) => o.order_number);
}

describeEachTarget('custom resources: reading', (target) => {
  let t: TestApp;
  let api: Api;
  let sam: Api;

  suiteApp(target, {}, async (app) => {
    t = app;
    api = await apiAs(app, 'demo');
    sam = await apiAs(app, 'sam');
  });

  const base = (): string => `http://${API_HOST}${t.base}`;

  it('answers a nested document: @metadata of each row, its attributes, children as arrays and parents as objects', async () => {
    const res = await api.get(`/Customers/${ALPHA}`).expect(200);
    expect(res.body).toHaveLength(1);
    const alpha = res.body[0] as Obj;
    const table = (await api.get(`/customer/${ALPHA}`).expect(200)).body[0] as Obj;
    expect(Object.keys(alpha)).toEqual(['@metadata', 'name', 'balance', 'credit_limit', 'Orders']);
    // links: the table's relations (meta-shapes.e2e-spec checks them)
    expect(alpha['@metadata']).toEqual({
      href: `${base()}/Customers/${ALPHA}`,
      checksum: table['@metadata'].checksum,
      links: expect.any(Array),
    });
    expect(alpha.credit_limit).toBe(9000);
    expect(orderNumbers(alpha)).toEqual([1, 13]);
    const order = (alpha.Orders as Obj[])[0]!;
    expect(order['@metadata'].href).toBe(`${base()}/Customers.Orders/1`);
    expect(order.notes).toBe('Order 1');
    const items = order.Lineitems as Obj[];
    expect(items.map((i) => [i.product_number, i.qty_ordered])).toEqual([
      [1, 1],
      [4, 2],
    ]);
    expect(items[0]!['@metadata'].href).toBe(`${base()}/Customers.Orders.Lineitems/${String(items[0]!.lineitem_id)}`);
    expect(items[0]!.Product).toEqual({
      '@metadata': {
        href: `${base()}/Customers.Orders.Lineitems.Product/1`,
        checksum: expect.stringMatching(/^R:/),
        links: expect.any(Array),
      },
      product_number: 1,
      name: 'Hammer',
      price: 10,
    });
  });

  it('leaves @metadata out at every level with nometa=true, keeping next_batch links', async () => {
    const res = await api.get(`/Customers/${ALPHA}?nometa=true&pagesize=1`).expect(200);
    const alpha = res.body[0] as Obj;
    expect(alpha).not.toHaveProperty('@metadata');
    const orders = alpha.Orders as Obj[];
    expect(orders[0]).not.toHaveProperty('@metadata');
    expect((orders[0]!.Lineitems as Obj[])[0]).not.toHaveProperty('@metadata');
    expect(orders.at(-1)!['@metadata'].next_batch).toContain('nometa=true');
    expect((await api.get('/Customers?nometa=maybe').expect(400)).body.errorCode).toBe(4000);
  });

  it('refuses parameters a custom resource does not take, and its named filters on its table', async () => {
    expect((await api.get('/Customers?bogus=1').expect(400)).body.errorMessage).toContain('"bogus"');
    expect((await api.get(`/Customers/${ALPHA}?userorder=richestFirst`).expect(400)).body.errorCode).toBe(4000);
    // A table takes only its own named filters and orders (tableQueries), not a custom resource's.
    expect((await api.get('/customer?userorder=richestFirst').expect(400)).body.errorMessage).toContain(
      'customer has no userorder "richestFirst"',
    );
    expect((await api.get(`/customer?userfilter=${q('f(a:1)')}`).expect(400)).body.errorMessage).toContain(
      'customer has no userfilter "f"',
    );
    expect((await api.get('/customer?parent=x').expect(400)).body.errorMessage).toContain('"parent"');
  });

  it('serves every level as a resource rooted there, by any case, and its hrefs answer their object', async () => {
    const orders = (await api.get('/customers.orders?pagesize=3').expect(200)).body as Obj[];
    expect(orders.slice(0, 3).map((o) => o.order_number)).toEqual([1, 2, 3]);
    expect(orders[0]!.Lineitems).toHaveLength(2);
    expect(orders[3]!['@metadata'].next_batch).toMatch(/offset=3/);
    const one = (await api.getUrl(orders[1]!['@metadata'].href).expect(200)).body as Obj[];
    expect(one).toHaveLength(1);
    expect(one[0]!.order_number).toBe(2);
    const entry = (await api.get('/OrderEntry/1').expect(200)).body as Obj[];
    expect(entry[0]!['@metadata'].href).toBe(`${base()}/OrderEntry/1`);
    expect((entry[0]!.Lineitems as Obj[]).map((i) => i['@metadata'].href)).toEqual([
      `${base()}/OrderEntry.Lineitems/1`,
      `${base()}/OrderEntry.Lineitems/2`,
    ]);
    expect((await api.get('/OrderEntry/999999').expect(200)).body).toEqual([]);
  });

  it('filters and orders each level with filter.<Path>, sysfilter.<Path>, order.<Path> and sysorder.<Path>', async () => {
    const res = await api
      .get(
        `/Customers?sysfilter=${q("equal(name:'Alpha and Sons')")}&order.Orders=${q('order_number desc')}` +
          `&sysfilter.Orders.Lineitems=${q('equal(qty_ordered:2)')}`,
      )
      .expect(200);
    expect(res.body).toHaveLength(1);
    const alpha = res.body[0] as Obj;
    expect(orderNumbers(alpha)).toEqual([13, 1]);
    const [o13, o1] = alpha.Orders as Obj[];
    expect((o1!.Lineitems as Obj[]).map((i) => i.qty_ordered)).toEqual([2]);
    expect((o13!.Lineitems as Obj[]).every((i) => i.qty_ordered === 2)).toBe(true);
    const paid = (await api.get(`/Customers/${ALPHA}?filter.orders=${q('paid = true')}`).expect(200)).body[0] as Obj;
    expect(paid.Orders).toEqual([]);
    const sorted = (await api.get(`/Customers/${ALPHA}?sysorder.Orders=${q('(order_number:desc)')}`).expect(200)).body[0] as Obj;
    expect(orderNumbers(sorted)).toEqual([13, 1]);
    // A parent level filtered out is null.
    const noProduct = (await api.get(`/OrderEntry/1?filter.Lineitems=${q('qty_ordered = 1')}`).expect(200)).body[0] as Obj;
    expect((noProduct.Lineitems as Obj[]).map((i) => i.qty_ordered)).toEqual([1]);
    const hidden = (await api.get(`/Customers/${ALPHA}?filter.Orders.Lineitems.Product=${q("name = 'Saw'")}`).expect(200)).body[0] as Obj;
    const firstItems = (hidden.Orders as Obj[])[0]!.Lineitems as Obj[];
    expect(firstItems.map((i) => (i.Product as Obj | null)?.name ?? null)).toEqual([null, 'Saw']);
  });

  it('refuses a per-level parameter naming no sub-resource, and a bad filter on a level, with 400', async () => {
    const unknown = await api.get(`/Customers?filter.Invoices=${q('paid = true')}`).expect(400);
    expect(unknown.body.errorCode).toBe(4000);
    expect(unknown.body.errorMessage).toContain('Invoices');
    expect((await api.get(`/Customers?filter.Orders=${q('nosuch = 1')}`).expect(400)).body.errorCode).toBe(4003);
    expect((await api.get(`/Customers?sysfilter.Orders=${q('equal(paid')}`).expect(400)).body.errorCode).toBe(4001);
    expect((await api.get(`/Customers?parent=x`).expect(400)).body.errorCode).toBe(4000);
  });

  it("pages each level: pagesize rows per owner, then a next_batch link that answers that owner's next rows", async () => {
    const res = await api
      .get(`/Customers/${ALPHA}?pagesize=1&order.Orders=${q('order_number desc')}&filter.Orders.Lineitems=${q('qty_ordered > 0')}`)
      .expect(200);
    const alpha = res.body[0] as Obj;
    const orders = alpha.Orders as Obj[];
    expect(orders).toHaveLength(2);
    expect(orders[0]!.order_number).toBe(13);
    const link = orders[1]!['@metadata'].next_batch!;
    expect(Object.keys(orders[1]!)).toEqual(['@metadata']);
    const url = new URL(link);
    expect(url.pathname).toBe(`${t.base}/Customers.Orders`);
    expect(url.searchParams.get('parent')).toBe(ALPHA);
    expect(url.searchParams.get('order')).toBe('order_number desc');
    expect(url.searchParams.get('filter.Lineitems')).toBe('qty_ordered > 0');
    expect(url.searchParams.get('pagesize')).toBe('1');
    const next = (await api.getUrl(link).expect(200)).body as Obj[];
    expect(next.map((o) => o.order_number)).toEqual([1]);
    expect(next[0]!['@metadata'].href).toBe(`${base()}/Customers.Orders/1`);
    // Order 1 has two line items: one shown, then its own next_batch.
    const items = next[0]!.Lineitems as Obj[];
    expect(items).toHaveLength(2);
    const itemsLink = items[1]!['@metadata'].next_batch!;
    expect(new URL(itemsLink).searchParams.get('parent')).toBe('1');
    expect(((await api.getUrl(itemsLink).expect(200)).body as Obj[]).map((i) => i.qty_ordered)).toEqual([2]);
    // Root paging as for tables.
    const page = (await api.get('/Customers?pagesize=2').expect(200)).body as Obj[];
    expect(page).toHaveLength(3);
    const page2 = (await api.getUrl(page[2]!['@metadata'].next_batch!).expect(200)).body as Obj[];
    expect(page2.slice(0, 2).map((c) => c.name)).not.toContain(page[0]!.name);
    expect(page2).toHaveLength(3);
  });

  it('replaces text longer than inlinelimit by a link that answers it whole, on custom and table resources', async () => {
    const order = ((await api.get('/Customers.Orders/1?inlinelimit=3').expect(200)).body as Obj[])[0]!;
    expect(order.notes).toEqual({ '@metadata': { href: `${base()}/Customers.Orders/1/notes`, length: 7 } });
    expect(order.order_number).toBe(1);
    const whole = await api.getUrl((order.notes as Obj)['@metadata'].href).expect(200);
    expect(whole.headers['content-type']).toMatch(/^text\/plain/);
    expect(whole.text).toBe('Order 1');
    const row = ((await api.get('/purchaseorder/1?inlinelimit=3').expect(200)).body as Obj[])[0]!;
    expect(row.notes).toEqual({ '@metadata': { href: `${base()}/purchaseorder/1/notes`, length: 7 } });
    expect((await api.getUrl((row.notes as Obj)['@metadata'].href).expect(200)).text).toBe('Order 1');
    const list = (await api.get(`/purchaseorder?inlinelimit=7&pagesize=1`).expect(200)).body as Obj[];
    expect(list[0]!.notes).toBe('Order 1');
    expect(((await api.get('/purchaseorder/1').expect(200)).body as Obj[])[0]!.notes).toBe('Order 1');
    expect((await api.get('/purchaseorder/1?inlinelimit=x').expect(400)).body.errorCode).toBe(4000);
    expect((await api.get('/purchaseorder/1/nosuch').expect(400)).body.errorCode).toBe(4003);
    expect((await api.get('/purchaseorder/999999/notes').expect(404)).body.errorCode).toBe(4041);
  });

  it("the value link keeps the row's grants: a hidden row is 404, a hidden column 400", async () => {
    expect((await sam.get('/purchaseorder/13/notes').expect(404)).body.errorCode).toBe(4041);
    expect((await sam.get('/Customers.Orders/13/notes').expect(404)).body.errorCode).toBe(4041);
    expect((await sam.get('/purchaseorder/1/notes').expect(200)).text).toBe('Order 1');
    expect((await sam.get(`/customer/${ALPHA}/credit_limit`).expect(400)).body.errorCode).toBe(4003);
    expect((await sam.get(`/Customers/${ALPHA}/credit_limit`).expect(400)).body.errorCode).toBe(4003);
    expect((await sam.get(`/Customers/${ALPHA}/name`).expect(200)).text).toBe('Alpha and Sons');
  });

  it('reads the whole document with one statement per level, however many rows', async () => {
    for (const pagesize of [5, 100]) {
      const recorder = recordStatements(t);
      try {
        const res = await api.get(`/Customers?pagesize=${pagesize}`).expect(200);
        expect(res.body.length).toBeGreaterThanOrEqual(5);
      } finally {
        recorder.stop();
      }
      const levels = recorder.statements.filter((sql) => /\bFROM [`"](customer|purchaseorder|lineitem|product)[`"] [`"]t[`"]/.test(sql));
      expect(levels).toHaveLength(4);
      expect(levels.filter((sql) => sql.includes('ROW_NUMBER() OVER'))).toHaveLength(2);
    }
  });

  it('applies the roles at every level: a Sales rep sees his own orders only, and only the columns he may read', async () => {
    const alpha = ((await sam.get(`/Customers/${ALPHA}`).expect(200)).body as Obj[])[0]!;
    expect(Object.keys(alpha)).toEqual(['@metadata', 'name', 'balance', 'Orders']);
    expect(orderNumbers(alpha)).toEqual([1]);
    expect(((alpha.Orders as Obj[])[0]!.Lineitems as Obj[]).length).toBe(2);
    const all = (await sam.get('/Customers?pagesize=100').expect(200)).body as Obj[];
    expect(all.flatMap(orderNumbers).sort((a, b) => Number(a) - Number(b))).toEqual([1, 6, 11, 16]);
    const others = (await sam.get(`/Customers?pagesize=100&filter.Orders=${q('salesrep_id <> 1')}`).expect(200)).body as Obj[];
    expect(others.flatMap(orderNumbers)).toEqual([]);
    expect((await sam.get(`/Customers?filter=${q('credit_limit > 0')}`).expect(400)).body.errorCode).toBe(4003);
    expect((await sam.get('/Customers.Orders/13').expect(200)).body).toEqual([]);
    // Following a next_batch to another rep's order's children answers nothing.
    expect((await sam.get('/Customers.Orders.Lineitems?parent=13').expect(200)).body).toEqual([]);
  });

  it('applies named filters and orders with bound parameters', async () => {
    const rich = (await api.get(`/Customers?pagesize=100&userfilter=${q('balanceAtLeast(min:100)')}&userorder=richestFirst`).expect(200))
      .body as Obj[];
    const table = (await api.get(`/customer?pagesize=100&filter=${q('balance >= 100')}`).expect(200)).body as Obj[];
    expect(rich.length).toBe(table.length);
    expect(rich.length).toBeGreaterThan(0);
    const balances = rich.map((c) => c.balance as number);
    expect([...balances].sort((a, b) => b - a)).toEqual(balances);
    const named = (await api.get(`/Customers?userfilter=${q("named(name:'Alpha and Sons')")}`).expect(200)).body as Obj[];
    expect(named.map((c) => c.name)).toEqual(['Alpha and Sons']);
    const hostile = await api.get(`/Customers?userfilter=${q("named(name:'x'' or ''1''=''1')")}`).expect(200);
    expect(hostile.body).toEqual([]);
    for (const [text, code] of [
      ['nosuch(min:1)', 4000],
      ['balanceAtLeast(max:1)', 4000],
      ['balanceAtLeast()', 4000],
      ['balanceAtLeast(min:1, min:2)', 4000],
      ["balanceAtLeast(min:'lots')", 4000],
      ['balanceAtLeast(min:', 4001],
    ] as const) {
      expect({ text, code: (await api.get(`/Customers?userfilter=${q(text)}`).expect(400)).body.errorCode }).toEqual({ text, code });
    }
    expect((await api.get('/Customers?userorder=nosuch').expect(400)).body.errorCode).toBe(4000);
    expect((await api.get('/Customers.Orders?userorder=richestFirst').expect(400)).body.errorCode).toBe(4000);
  });
});

const aliased: CustomResourceDefinition[] = [
  {
    name: 'Clients',
    entity: 'customer',
    attributes: ['name', { name: 'Owed', column: 'balance' }],
    filter: "name <> 'Zulu Zinc'",
    order: 'name desc',
    children: [
      {
        name: 'Orders',
        entity: 'purchaseorder',
        via: 'customer',
        attributes: [
          { name: 'Number', column: 'order_number' },
          { name: 'Note', column: 'notes' },
        ],
        order: 'order_number desc',
        parents: [{ name: 'Rep', entity: 'employee', via: 'salesrep', attributes: [{ name: 'Who', column: 'name' }] }],
      },
    ],
    userFilters: { owing: 'Owed > :amount' },
    userOrders: { byOwed: 'Owed desc' },
  },
];

const aliasedProject: ProjectDefinition = {
  ...demoProject,
  resources: aliased,
  roles: {
    ...demoProject.roles,
    roles: [
      ...demoProject.roles.roles,
      { name: 'Customers only', defaultAccess: 'NONE', resources: { customer: { access: ['READ'] } } },
      { name: 'No employees', defaultAccess: 'NONE', resources: { customer: { access: ['READ'] }, purchaseorder: { access: ['READ'] } } },
    ],
  },
};

describeEachTarget('custom resources: aliases, fixed filters and orders', (target) => {
  let t: TestApp;
  let api: Api;
  suiteApp(target, { project: aliasedProject }, async (app) => {
    t = app;
    api = await apiAs(app, 'demo');
  });

  it('leaves out a level whose table the caller cannot read, and all below it', async () => {
    const customersOnly = apiWithKey(t, await createManualToken(t, { roles: ['Customers only'] }));
    const alpha = ((await customersOnly.get(`/Clients/${ALPHA}`).expect(200)).body as Obj[])[0]!;
    expect(Object.keys(alpha)).toEqual(['@metadata', 'name', 'Owed']);
    expect((await customersOnly.get('/Clients.Orders').expect(403)).body.errorCode).toBe(4030);
    const noEmployees = apiWithKey(t, await createManualToken(t, { roles: ['No employees'] }));
    const orders = ((await noEmployees.get(`/Clients/${ALPHA}`).expect(200)).body as Obj[])[0]!.Orders as Obj[];
    expect(orders.map((o) => Object.keys(o))).toEqual([
      ['@metadata', 'Number', 'Note'],
      ['@metadata', 'Number', 'Note'],
    ]);
  });

  it("shows attributes under their aliases, in the definition's order, filtered and ordered by the definition", async () => {
    const clients = (await api.get('/Clients?pagesize=100').expect(200)).body as Obj[];
    expect(clients.map((c) => c.name)).not.toContain('Zulu Zinc');
    expect(clients[0]!.name).toBe('Yankee Yards');
    const alpha = ((await api.get(`/Clients/${ALPHA}`).expect(200)).body as Obj[])[0]!;
    expect(Object.keys(alpha)).toEqual(['@metadata', 'name', 'Owed', 'Orders']);
    const orders = alpha.Orders as Obj[];
    expect(orders.map((o) => o.Number)).toEqual([13, 1]);
    expect(Object.keys(orders[1]!)).toEqual(['@metadata', 'Number', 'Note', 'Rep']);
    expect((orders[1]!.Rep as Obj).Who).toBe('Sam Sales');
    expect(orders[0]!.Rep).toEqual(expect.objectContaining({ Who: 'Lee Long' }));
  });

  it('filters and orders by aliases or the columns they show (as LAC); columns a level does not show are unknown', async () => {
    const alpha = ((await api.get(`/Clients/${ALPHA}?filter.Orders=${q('Number < 10')}`).expect(200)).body as Obj[])[0]!;
    expect((alpha.Orders as Obj[]).map((o) => o.Number)).toEqual([1]);
    const asc = ((await api.get(`/Clients/${ALPHA}?order.Orders=${q('Number asc')}`).expect(200)).body as Obj[])[0]!;
    expect((asc.Orders as Obj[]).map((o) => o.Number)).toEqual([1, 13]);
    const byColumn = ((await api.get(`/Clients/${ALPHA}?filter.Orders=${q('order_number < 10')}`).expect(200)).body as Obj[])[0]!;
    expect((byColumn.Orders as Obj[]).map((o) => o.Number)).toEqual([1]);
    expect((await api.get(`/Clients?filter=${q('balance > 0')}&sysorder=${q('(balance:desc)')}`).expect(200)).body).toEqual(
      (await api.get(`/Clients?filter=${q('Owed > 0')}&sysorder=${q('(Owed:desc)')}`).expect(200)).body,
    );
    expect((await api.get(`/Clients?filter.Orders=${q('amount_total > 0')}`).expect(400)).body.errorCode).toBe(4003);
    expect((await api.get(`/Clients?filter=${q('credit_limit > 0')}`).expect(400)).body.errorCode).toBe(4003);
    expect((await api.get(`/Clients?sysorder=${q('(credit_limit:desc)')}`).expect(400)).body.errorCode).toBe(4003);
    const owing = (await api.get(`/Clients?pagesize=100&userfilter=${q('owing(amount:0)')}&userorder=byOwed`).expect(200)).body as Obj[];
    const owed = owing.map((c) => c.Owed as number);
    expect(owed.every((v) => v > 0)).toBe(true);
    expect([...owed].sort((a, b) => b - a)).toEqual(owed);
  });
  it('reads the children of a very large page in chunks of owner keys, one statement per chunk', async () => {
    const names = Array.from({ length: 520 }, (_, i) => `Chunk ${String(i).padStart(3, '0')}`);
    await api
      .post(
        '/customer',
        names.map((name) => ({ name, credit_limit: 100 })),
      )
      .expect(201);
    await api.post('/purchaseorder', [{ customer_name: 'Chunk 000', salesrep_id: 2 }, { customer_name: 'Chunk 519' }]).expect(201);
    const recorder = recordStatements(t);
    let clients: Obj[];
    try {
      clients = (await api.get(`/Clients?pagesize=1000&filter=${q("name like 'Chunk%'")}`).expect(200)).body as Obj[];
    } finally {
      recorder.stop();
    }
    expect(clients).toHaveLength(520);
    const orders = recorder.statements.filter((sql) => /\bFROM [`"]purchaseorder[`"] [`"]t[`"]/.test(sql));
    expect(orders).toHaveLength(2);
    const byName = new Map(clients.map((c) => [c.name, c]));
    expect(((byName.get('Chunk 000')!.Orders as Obj[])[0]!.Rep as Obj).Who).toBe('Pat Peters');
    expect((byName.get('Chunk 519')!.Orders as Obj[])[0]!.Rep).toBeNull();
    expect(clients.filter((c) => (c.Orders as Obj[]).length > 0)).toHaveLength(2);
  });
});

describe('custom resources: boot check', () => {
  const target = testTargets()[0]!;
  const boot = async (resources: CustomResourceDefinition[]): Promise<string> => {
    try {
      const t = await startTestApp(target, { project: { ...demoProject, resources } });
      await t.close();
      return '';
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('lists every problem of the definitions in one error', async () => {
    const message = await boot([
      { name: 'customer', entity: 'customer' },
      { name: 'Bad.Name', entity: 'customer' },
      { name: 'Nowhere', entity: 'nosuchtable' },
      {
        name: 'Docs',
        entity: 'customer',
        attributes: ['name', { name: 'Money', column: 'nosuch' }, { name: 'name', column: 'balance' }],
        filter: 'balance >',
        order: 'nosuch desc',
        userFilters: { f: 'Nope = :x', 'bad name': 'name = :x', g: 'name = @{employee_id}' },
        userOrders: { o: 'balance sideways' },
        children: [
          { name: 'Orders', entity: 'product' },
          { name: 'name', entity: 'purchaseorder' },
          { name: 'Lines', entity: 'purchaseorder', via: 'salesrep' },
          { name: 'lines', entity: 'purchaseorder' },
        ],
      },
      { name: 'docs', entity: 'product' },
    ]);
    expect(message).toContain('The custom resources in the project are invalid');
    for (const part of [
      'resource "customer": a table resource has that name',
      'resource "Bad.Name": a name is',
      'resource "Nowhere": no such table "nosuchtable"',
      'attribute "Money": customer has no column "nosuch"',
      'attribute "name" is named twice',
      'resource "Docs": filter: filter syntax error',
      'resource "Docs": order: unknown column "nosuch"',
      'userFilter "f": unknown column "Nope"',
      'userFilter "bad name"',
      'userFilter "g": a named filter may not use @{globals}',
      'userOrder "o"',
      'child "Orders": no relation links product to its parent customer',
      'child "name": an attribute of Docs has the same name',
      'child "Lines": purchaseorder has no relation "salesrep" to customer (it has: customer)',
      'child "lines": two sub-resources of Docs have that name',
      'resource "docs" is defined twice',
    ]) {
      expect(message).toContain(part);
    }
  });

  it('boots with the demo resources', async () => {
    expect(await boot(demoProject.resources ?? [])).toBe('');
  });
});
