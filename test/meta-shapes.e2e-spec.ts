import { demoProject } from '../src/demo/project.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import { API_HOST, apiAs, oneRow, type Api } from './support/api.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

/**
 * The meta endpoints in the shapes CA Live API Creator's clients read (issue 16, item 6): `@resources`,
 * `@tables`, `@tables/<t>`, `@schema/<prefix>`, `@views`, `@procedures`, `@functions`, and each object's
 * `@metadata.links`, which show only relations to tables the caller may read, built only from columns it may read.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies of many shapes
interface Link {
  href: string;
  rel: 'parent' | 'children';
  role: string;
  type: string;
}

/** The demo with one more role: reads orders without their salesrep, line items without their order, no customers. */
const project: ProjectDefinition = {
  ...demoProject,
  roles: {
    ...demoProject.roles,
    roles: [
      ...demoProject.roles.roles,
      {
        name: 'Clerk',
        defaultAccess: 'NONE',
        metaAccess: false,
        resources: {
          purchaseorder: { access: ['READ'], readColumns: ['order_number', 'customer_name', 'amount_total', 'paid', 'notes'] },
          lineitem: { access: ['READ'], readColumns: ['lineitem_id', 'product_number', 'qty_ordered'] },
          employee: { access: ['READ'] },
          product: { access: ['READ'] },
        },
      },
    ],
  },
  seedUsers: [...(demoProject.seedUsers ?? []), { login: 'clerk', password: 'Password1', roles: ['Clerk'] }],
  // A level that shows neither foreign key of its table.
  resources: [
    ...(demoProject.resources ?? []),
    { name: 'OrderNotes', entity: 'purchaseorder', attributes: ['order_number', { name: 'text', column: 'notes' }] },
  ],
};

/** An object's links; `@metadata.links` is left out when there are none. */
const linksOf = (object: Json): Link[] => (object['@metadata'].links as Link[] | undefined) ?? [];
const byRole = (links: Link[], role: string): Link | undefined => links.find((l) => l.role === role);

describeEachTarget('meta endpoints in LAC shapes', (target) => {
  let t: TestApp;
  let demo: Api;
  let readonly: Api;
  let sam: Api;
  let clerk: Api;
  let origin: string;

  suiteApp(target, { project }, async (app) => {
    t = app;
    [demo, readonly, sam, clerk] = (await Promise.all(['demo', 'readonly', 'sam', 'clerk'].map((user) => apiAs(app, user)))) as [
      Api,
      Api,
      Api,
      Api,
    ];
    origin = `http://${API_HOST}${app.base}`;
  });

  describe('@resources', () => {
    it("lists every table resource with LAC's fields, today's fields, and an href that answers", async () => {
      const list = (await readonly.get('/@resources').expect(200)).body as Json[];
      const customer = list.find((r) => r.name === 'customer');
      expect(customer).toEqual({
        '@metadata': { href: `${origin}/customer` },
        name: 'customer',
        resource_type: 'TableBased',
        prefix: 'main',
        entity: 'customer',
        apiVersion: 'v1',
        is_collection: true,
        description: expect.any(String),
        prefixedName: 'main:customer',
        table: 'customer',
        primaryKey: ['name'],
      });
      const tables = list.filter((r) => r.resource_type === 'TableBased').map((r) => r.name);
      expect(tables.sort()).toEqual([
        'customer',
        'customer_summary',
        'employee',
        'lineitem',
        'payment',
        'payment_allocation',
        'product',
        'purchaseorder',
        'purchaseorder_audit',
      ]);
      for (const resource of list.filter((r) => r.resource_type === 'TableBased')) {
        const page = await demo.getUrl(`${resource['@metadata'].href}?pagesize=1`).expect(200);
        expect(Array.isArray(page.body)).toBe(true);
      }
      // The demo's view is a table resource too, marked read-only, with the key its entity declares.
      expect(list.find((r) => r.name === 'customer_summary')).toMatchObject({
        resource_type: 'TableBased',
        entity: 'customer_summary',
        readOnly: true,
        primaryKey: ['name'],
      });
      expect(customer).not.toHaveProperty('readOnly');
    });

    it('lists the custom resources as Custom, with the table of their top level', async () => {
      const list = (await readonly.get('/@resources').expect(200)).body as Json[];
      expect(list.filter((r) => r.resource_type === 'Custom')).toEqual([
        {
          '@metadata': { href: `${origin}/Customers` },
          name: 'Customers',
          resource_type: 'Custom',
          prefix: 'main',
          entity: 'customer',
          apiVersion: 'v1',
          is_collection: true,
          description: expect.any(String),
          table: 'customer',
          primaryKey: ['name'],
        },
        expect.objectContaining({ '@metadata': { href: `${origin}/OrderEntry` }, name: 'OrderEntry', entity: 'purchaseorder' }),
        expect.objectContaining({ name: 'CustomerDebts', entity: 'customer' }),
        expect.objectContaining({ name: 'OrderNotes', description: null }),
      ]);
    });
  });

  describe('@tables', () => {
    it('names each table with prefix, entity and its own href; the href and @tables/* answer the same table', async () => {
      const list = (await demo.get('/@tables').expect(200)).body as Json[];
      const product = list.find((x) => x.entity === 'product')!;
      expect(product).toMatchObject({
        '@metadata': { href: `${origin}/@tables/main:product` },
        name: 'product',
        prefix: 'main',
        entity: 'product',
      });
      expect((await demo.getUrl(product['@metadata'].href).expect(200)).body).toEqual(product);
      expect((await demo.get('/@tables/*').expect(200)).body).toEqual(list);
    });

    it('@tables/<t> carries primaryKeyColumns and the relations both ways, keeping the fields it had', async () => {
      const order = (await demo.get('/@tables/purchaseorder').expect(200)).body as Json;
      expect(order.primaryKeyColumns).toEqual(['order_number']);
      expect(order.primaryKey).toEqual(['order_number']);
      expect(order.columns).toContainEqual(
        expect.objectContaining({ name: 'customer_name', dbName: 'customer_name', type: 'string', size: 30 }),
      );
      expect(order.parents).toContainEqual({
        name: 'customer',
        parent: 'customer',
        columns: [{ child: 'customer_name', parent: 'name' }],
        parent_table: 'main:customer',
        child_columns: ['customer_name'],
        parent_columns: ['name'],
      });
      expect(order.parents).toContainEqual(expect.objectContaining({ parent_table: 'main:employee', child_columns: ['salesrep_id'] }));
      expect(order.children).toEqual([
        {
          name: 'lineitem',
          child: 'lineitem',
          via: 'purchaseorder',
          role: 'lineitem',
          child_table: 'main:lineitem',
          parent_columns: ['order_number'],
          child_columns: ['order_number'],
        },
        {
          name: 'payment_allocation',
          child: 'payment_allocation',
          via: 'purchaseorder',
          role: 'payment_allocation',
          child_table: 'main:payment_allocation',
          parent_columns: ['order_number'],
          child_columns: ['order_number'],
        },
      ]);
      await demo.get('/@tables/nope').expect(404);
    });

    it('@tables/<t> marks the columns a rule derives (sums, formulas, copies), which clients may not set', async () => {
      const derivedOf = async (table: string) =>
        ((await demo.get(`/@tables/${table}`).expect(200)).body.columns as Json[]).filter((c) => c.derived).map((c) => c.name);
      expect(await derivedOf('lineitem')).toEqual(['product_price', 'amount']);
      expect(await derivedOf('purchaseorder')).toEqual(['amount_total', 'amount_paid', 'amount_owed']);
      expect(await derivedOf('customer')).toEqual(['balance']);
      expect(await derivedOf('product')).toEqual([]);
      const item = (await demo.get('/@tables/lineitem').expect(200)).body as Json;
      expect(item.columns).toContainEqual(expect.objectContaining({ name: 'qty_ordered', derived: false }));
      // The same mark as @docs' readOnly, which also covers generated keys.
      const doc = (await demo.get('/@docs').expect(200)).body as Json;
      expect(doc.components.schemas.lineitem.properties.amount).toMatchObject({ readOnly: true });
    });
  });

  describe('@count/<resource>', () => {
    /** Every row a list answers, `query` applied, read page by page. */
    const listed = async (api: Api, resource: string, query = ''): Promise<Json[]> =>
      ((await api.get(`/${resource}?pagesize=5000${query}`).expect(200)).body as Json[]).filter((r) => r['@metadata']?.href !== undefined);

    it("counts what the list would page through, filters and the roles' row filters applied", async () => {
      const all = await listed(demo, 'purchaseorder');
      expect((await demo.get('/@count/purchaseorder').expect(200)).body).toEqual({ count: all.length, more: false });
      const paid = await listed(demo, 'purchaseorder', `&filter=${encodeURIComponent('paid = true')}`);
      expect((await demo.get(`/@count/purchaseorder?filter=${encodeURIComponent('paid = true')}`).expect(200)).body.count).toBe(
        paid.length,
      );
      expect((await demo.get('/@count/main:purchaseorder?sysfilter=equal(paid:false)').expect(200)).body.count).toBe(
        all.length - paid.length,
      );
      // sam, a sales rep, reads only his own orders and their line items: his counts say nothing of the others'.
      const his = await listed(sam, 'purchaseorder');
      expect(his.length).toBeGreaterThan(0);
      expect(his.length).toBeLessThan(all.length);
      expect((await sam.get('/@count/purchaseorder').expect(200)).body).toEqual({ count: his.length, more: false });
      expect((await sam.get('/@count/lineitem').expect(200)).body.count).toBe((await listed(sam, 'lineitem')).length);
      const notHis = all.find((o) => !his.some((h) => h.order_number === o.order_number))!;
      expect((await sam.get(`/@count/purchaseorder?sysfilter=equal(order_number:${notHis.order_number})`).expect(200)).body.count).toBe(0);
    });

    it('refuses what a list refuses: hidden columns in filters, other parameters, resources without READ, custom resources', async () => {
      // A sales rep reads customers' name and balance only: credit_limit cannot be probed through a count either.
      expect((await sam.get(`/@count/customer?filter=${encodeURIComponent('credit_limit > 5000')}`).expect(400)).body.errorCode).toBe(4003);
      expect((await sam.get('/@count/customer?sysfilter=greater(credit_limit:5000)').expect(400)).body.errorCode).toBe(4003);
      expect((await clerk.get('/@count/customer').expect(403)).body.errorCode).toBe(4030);
      expect((await demo.get('/@count/customer?pagesize=1').expect(400)).body.errorMessage).toContain('"pagesize"');
      expect((await demo.get('/@count/Customers').expect(400)).body.errorMessage).toContain('custom resource');
      expect((await demo.get('/@count/nope').expect(404)).body.errorCode).toBe(4040);
      expect((await t.http().get(`${t.base}/@count/customer`).expect(401)).body.errorCode).toBe(4010);
      const doc = (await demo.get('/@docs').expect(200)).body as Json;
      expect(doc.paths['/@count/{resource}'].get.responses[200]).toBeDefined();
    });
  });

  describe('the query of meta lists', () => {
    it("sorts and pages as LAC's CLI asks (schema list), and refuses a parameter it does not take", async () => {
      const sorted = (await demo.get('/@tables?sysorder=(entity:asc_uc,entity:desc)&pagesize=1000').expect(200)).body as Json[];
      expect(sorted.map((x) => x.entity)).toEqual([
        'customer',
        'employee',
        'lineitem',
        'payment',
        'payment_allocation',
        'product',
        'purchaseorder',
        'purchaseorder_audit',
      ]);
      const first = (await demo.get('/@tables?sysorder=(entity:desc)&pagesize=4').expect(200)).body as Json[];
      expect(first.slice(0, 4).map((x) => x.entity)).toEqual(['purchaseorder_audit', 'purchaseorder', 'product', 'payment_allocation']);
      const next = first[4]!['@metadata'].next_batch as string;
      expect(next).toBe(`${origin}/@tables?sysorder=%28entity%3Adesc%29&pagesize=4&offset=4`);
      expect(((await demo.getUrl(next).expect(200)).body as Json[]).map((x) => x.entity)).toEqual([
        'payment',
        'lineitem',
        'employee',
        'customer',
      ]);
      const resources = (await demo.get('/@resources?sysorder=(resource_type:asc,name:desc)').expect(200)).body as Json[];
      expect(resources.slice(0, 3).map((r) => r.name)).toEqual(['OrderNotes', 'OrderEntry', 'Customers']);
      const refused = await demo.get('/@tables?sysfilter=equal(project_ident:1)').expect(400);
      expect(refused.body).toMatchObject({ errorCode: 4000, errorMessage: expect.stringContaining('"sysfilter"') });
      // LAC's SDK sends its pagesize on every GET (setPageSize): one entry takes it, and nothing else.
      expect((await demo.get('/@tables/customer?pagesize=1').expect(200)).body).toMatchObject({ name: 'customer' });
      expect((await demo.get('/@tables/customer?pagesize=0').expect(400)).body.errorCode).toBe(4000);
      expect((await demo.get('/@tables/customer?offset=1').expect(400)).body.errorCode).toBe(4000);
      expect((await demo.get('/@tables?sysorder=(columns:asc)').expect(400)).body.errorCode).toBe(4003);
      expect((await demo.get('/@schema/main?projectId=123').expect(200)).body).toHaveLength(8);
    });
  });

  describe('@schema/<prefix>', () => {
    it('answers every table with columns and relations for the prefix (any case), 404 / 4040 for another', async () => {
      const tables = (await demo.get('/@tables').expect(200)).body;
      expect((await demo.get('/@schema/main').expect(200)).body).toEqual(tables);
      expect((await demo.get('/@schema/MAIN').expect(200)).body).toEqual(tables);
      const unknown = await demo.get('/@schema/demo').expect(404);
      expect(unknown.body).toMatchObject({ statusCode: 404, errorCode: 4040 });
    });
  });

  describe('@views, @procedures, @functions', () => {
    it('answer to a role with meta access, 403 / 4030 to one without, 401 without a token', async () => {
      for (const path of ['/@views', '/@procedures', '/@functions']) {
        const listed = (await readonly.get(path).expect(200)).body as Array<{ name: string }>;
        // The demo's one view and one function (giveRaise); its one stored routine exists on MariaDB and PostgreSQL only (procedures.e2e-spec has the rest).
        expect(listed.map((entry) => entry.name)).toEqual(
          path === '/@views'
            ? ['customer_summary']
            : path === '/@procedures' && t.config.database.kind !== 'sqlite'
              ? ['order_totals']
              : path === '/@functions'
                ? ['giveRaise']
                : [],
        );
        expect((await sam.get(path).expect(403)).body.errorCode).toBe(4030);
        expect((await t.http().get(`${t.base}${path}`).expect(401)).body.errorCode).toBe(4010);
      }
      for (const path of ['/@resources', '/@tables', '/@tables/customer', '/@schema/main']) {
        expect((await clerk.get(path).expect(403)).body.errorCode).toBe(4030);
      }
    });
  });

  describe('@docs', () => {
    it('documents each custom resource: its paths, one schema per level, and the per-level and named parameters', async () => {
      const doc = (await demo.get('/@docs').expect(200)).body as Json;
      expect(Object.keys(doc.paths['/Customers'])).toEqual(['get', 'post', 'put', 'patch']);
      expect(Object.keys(doc.paths['/Customers/{key}'])).toEqual(['parameters', 'get', 'put', 'patch', 'delete']);
      expect(Object.keys(doc.paths['/Customers.Orders'])).toEqual(['get']);
      expect(Object.keys(doc.paths['/OrderEntry.Lineitems/{key}'])).toEqual(['parameters', 'get']);
      const schemas = doc.components.schemas;
      expect(schemas.Customers.properties.Orders).toMatchObject({
        type: 'array',
        items: { anyOf: [{ $ref: '#/components/schemas/Customers.Orders' }, { $ref: '#/components/schemas/NextBatch' }] },
      });
      expect(schemas['Customers.Orders.Lineitems'].properties.Product).toMatchObject({
        oneOf: [{ $ref: '#/components/schemas/Customers.Orders.Lineitems.Product' }, { type: 'null' }],
      });
      expect(Object.keys(schemas['Customers.Orders.Lineitems.Product'].properties)).toEqual([
        '@metadata',
        'product_number',
        'name',
        'price',
      ]);
      expect(schemas.Customers.properties.balance).toMatchObject({ readOnly: true }); // derived by a rule, as on the table
      const names = (doc.paths['/Customers'].get.parameters as Json[]).map((p) => p.name ?? p.$ref.replace('#/components/parameters/', ''));
      expect(names).toEqual(
        expect.arrayContaining([
          'filter',
          'pagesize',
          'userfilter',
          'userorder',
          'filter.Orders',
          'sysfilter.Orders.Lineitems',
          'order.Orders.Lineitems.Product',
        ]),
      );
      const userorder = (doc.paths['/Customers'].get.parameters as Json[]).find((p) => p.name === 'userorder');
      expect(userorder?.schema).toEqual({ enum: ['richestFirst'] });
      const sub = (doc.paths['/Customers.Orders'].get.parameters as Json[]).map((p) => p.name).filter(Boolean);
      expect(sub).toEqual(expect.arrayContaining(['filter.Lineitems', 'parent']));
      expect(sub).not.toContain('filter.Orders');
      expect(doc.components.parameters['key.Customers']).toMatchObject({ in: 'path', schema: { type: 'string', maxLength: 30 } });
      expect(doc.tags.map((t: Json) => t.name)).toEqual(expect.arrayContaining(['Customers', 'OrderEntry']));
    });
  });

  describe('@metadata.links', () => {
    it("links an order to its parents' objects and its children's collection, each answering what it names", async () => {
      const order = await oneRow<Json>(demo, '/purchaseorder/1');
      const links = linksOf(order);
      expect(byRole(links, 'customer')).toEqual({
        href: `${origin}/customer/${encodeURIComponent(order.customer_name)}`,
        rel: 'parent',
        role: 'customer',
        type: 'urn:caliveapicreator:demo:main:customer',
      });
      const customer = await oneRow<Json>(demo, `/customer/${encodeURIComponent(order.customer_name)}`);
      expect((await demo.getUrl(byRole(links, 'customer')!.href).expect(200)).body).toEqual([customer]);
      const salesrep = byRole(links, 'salesrep')!;
      expect(salesrep).toMatchObject({ rel: 'parent', href: `${origin}/employee/${order.salesrep_id}` });
      expect((await demo.getUrl(salesrep.href).expect(200)).body[0].employee_id).toBe(order.salesrep_id);
      const items = byRole(links, 'lineitem')!;
      expect(items).toMatchObject({ rel: 'children', href: `${origin}/lineitem?sysfilter=equal(order_number:1)` });
      const rows = (await demo.getUrl(items.href).expect(200)).body as Json[];
      const all = (await demo.get('/lineitem?pagesize=1000').expect(200)).body as Json[];
      expect(rows.map((r) => r.lineitem_id)).toEqual(all.filter((r) => r.order_number === 1).map((r) => r.lineitem_id));
      expect(rows.length).toBeGreaterThan(0);
    });

    it('quotes a string key in a children link, and every object of a page carries its own links', async () => {
      const customers = (await demo.get('/customer?pagesize=5').expect(200)).body as Json[];
      expect(customers.length).toBeGreaterThan(1);
      for (const customer of customers.filter((c) => c.name !== undefined)) {
        const orders = byRole(linksOf(customer), 'purchaseorder')!;
        expect(orders.href).toBe(`${origin}/purchaseorder?sysfilter=equal(customer_name:${encodeURIComponent(`'${customer.name}'`)})`);
        const rows = (await demo.getUrl(`${orders.href}&pagesize=100`).expect(200)).body as Json[];
        expect(rows.every((r) => r.customer_name === customer.name)).toBe(true);
      }
    });

    it("a children link on a key holding a quote, an ampersand and spaces answers exactly that parent's children", async () => {
      const name = "O'Hara & Sons";
      await demo.post('/customer', { name, credit_limit: 100 }).expect(201);
      await demo.post('/purchaseorder', { customer_name: name, notes: 'quoted' }).expect(201);
      const customer = await oneRow<Json>(demo, `/customer/${encodeURIComponent(name)}`);
      const orders = (await demo.getUrl(byRole(linksOf(customer), 'purchaseorder')!.href).expect(200)).body as Json[];
      expect(orders.map((o) => [o.customer_name, o.notes])).toEqual([[name, 'quoted']]);
      const [order] = orders;
      expect((await demo.getUrl(byRole(linksOf(order!), 'customer')!.href).expect(200)).body).toEqual([customer]);
    });

    it('an object sent back with its links (a GET -> PUT round trip) is accepted: links are not data', async () => {
      const employee = await oneRow<Json>(demo, '/employee/2');
      expect(linksOf(employee).length).toBeGreaterThan(0);
      const res = await demo.put('/employee/2', { ...employee, name: `${String(employee.name)} Jr` }).expect(200);
      expect(res.body.txsummary[0]).toMatchObject({ employee_id: 2, name: `${String(employee.name)} Jr` });
    });

    it("links every object of a custom resource's document to its table's relations", async () => {
      const [customer] = (await demo.get('/Customers/Alpha%20and%20Sons?pagesize=2').expect(200)).body as Json[];
      expect(linksOf(customer!)).toEqual([
        {
          href: `${origin}/purchaseorder?sysfilter=equal(customer_name:'Alpha%20and%20Sons')`,
          rel: 'children',
          role: 'purchaseorder',
          type: 'urn:caliveapicreator:demo:main:purchaseorder',
        },
        {
          href: `${origin}/payment?sysfilter=equal(customer_name:'Alpha%20and%20Sons')`,
          rel: 'children',
          role: 'payment',
          type: 'urn:caliveapicreator:demo:main:payment',
        },
      ]);
      const order = customer!.Orders[0] as Json;
      expect(linksOf(order).map((l) => [l.rel, l.role])).toEqual([
        ['parent', 'customer'],
        ['parent', 'salesrep'],
        ['children', 'lineitem'],
        ['children', 'payment_allocation'],
      ]);
      expect(byRole(linksOf(order), 'lineitem')!.href).toBe(`${origin}/lineitem?sysfilter=equal(order_number:${order.order_number})`);
      const product = (order.Lineitems[0] as Json).Product as Json;
      expect(linksOf(product)).toEqual([
        expect.objectContaining({ rel: 'children', href: `${origin}/lineitem?sysfilter=equal(product_number:${product.product_number})` }),
      ]);
    });

    it('builds no link of a custom level from a column the level does not show', async () => {
      const [note] = (await demo.get('/OrderNotes/1').expect(200)).body as Json[];
      expect(Object.keys(note!).sort()).toEqual(['@metadata', 'order_number', 'text']);
      expect(linksOf(note!).map((l) => l.role)).toEqual(['lineitem', 'payment_allocation']);
    });

    it('leaves out a parent link whose foreign key is null', async () => {
      const order = await oneRow<Json>(demo, '/purchaseorder/10');
      expect(order.salesrep_id).toBeNull();
      expect(byRole(linksOf(order), 'salesrep')).toBeUndefined();
      expect(byRole(linksOf(order), 'customer')).toBeDefined();
    });

    it('shows only relations to tables the caller may read, and builds none from a column it may not read', async () => {
      const order = await oneRow<Json>(clerk, '/purchaseorder/1');
      expect(order.salesrep_id).toBeUndefined();
      // customer: not readable; salesrep: its foreign key is hidden; lineitem: the clerk cannot filter on its order_number.
      expect(Object.keys(order['@metadata'])).toEqual(['href', 'checksum']);
      const item = (await clerk.get('/lineitem?pagesize=1').expect(200)).body[0] as Json;
      expect(linksOf(item)).toEqual([expect.objectContaining({ role: 'product', href: `${origin}/product/${item.product_number}` })]);
      const product = await oneRow<Json>(clerk, `/product/${item.product_number}`);
      // The clerk may filter line items by product_number (a column it reads): that link stays.
      expect(linksOf(product)).toEqual([
        expect.objectContaining({
          rel: 'children',
          role: 'lineitem',
          href: `${origin}/lineitem?sysfilter=equal(product_number:${item.product_number})`,
        }),
      ]);
    });

    it("a sales rep's customer links to the orders he may read, and following it answers only those", async () => {
      const customer = await oneRow<Json>(sam, '/customer/Alpha%20and%20Sons');
      const links = linksOf(customer);
      expect(links.map((l) => l.role)).toEqual(['purchaseorder', 'payment']);
      const orders = (await sam.getUrl(links[0]!.href).expect(200)).body as Json[];
      expect(orders.length).toBeGreaterThan(0);
      expect(orders.every((o) => o.customer_name === 'Alpha and Sons' && o.salesrep_id === 1)).toBe(true);
    });
  });
});
