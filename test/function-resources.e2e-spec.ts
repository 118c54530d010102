import { Decimal } from 'decimal.js';
import { demoProject } from '../src/demo/project.js';
import { demoRoles } from '../src/demo/roles.js';
import { Customer } from '../src/demo/entities/customer.entity.js';
import type { FunctionResourceDefinition } from '../src/extensions/functions/function-definition.js';
import { Refusal } from '../src/extensions/refusal.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import { apiAs, apiWithRoles, type Api } from './support/api.js';
import { describeEachTarget, startTestApp, suiteApp, type TestApp } from './support/test-app.js';

/**
 * Function resources (issue 28, item 1): `<base>/<name>` answered by the project's code with a host that reads
 * and writes as the caller. The demo's `owedByCustomer` answers from the caller's own rows (sam: his orders
 * only), pages an array answer like a table's list, is granted by name in roles, and is listed in `@resources`
 * (resource_type JavaScript) and `@docs`; a function resource that writes answers with the txsummary.
 */

type Row = Record<string, unknown>;

const testResources: FunctionResourceDefinition[] = [
  {
    name: 'customerNotes',
    description: 'Customers as the caller sees them; POST raises a credit limit.',
    rows: { entity: Customer, attributes: ['name', 'credit_limit'] },
    parameters: { name: { type: 'string', maxLength: 30 }, raise: { type: 'number', min: 0 } },
    get: ({ data }) => data.list('customer', { pagesize: 100 }),
    post: async ({ data, parameters, body }) => {
      if (typeof parameters.name !== 'string') throw new Refusal(400, 'Say which customer.');
      const customer = await data.get('customer', parameters.name);
      if (!customer) throw new Refusal(404, 'No such customer.');
      const raised = new Decimal(Number(customer.credit_limit ?? 0)).plus((parameters.raise as number | undefined) ?? 0).toNumber();
      await data.update('customer', parameters.name, { credit_limit: raised });
      return { name: parameters.name, credit_limit: raised, note: (body as { note?: unknown } | undefined)?.note ?? null };
    },
  },
  { name: 'onlyNamed', explicitGrantOnly: true, get: () => ({ secret: false }) },
];

const project: ProjectDefinition = {
  ...demoProject,
  functionResources: [...(demoProject.functionResources ?? []), ...testResources],
  roles: {
    globals: demoRoles.globals,
    roles: [
      // The sales rep may use customerNotes too (read, and POST: which writes customers, which he may not).
      ...demoRoles.roles.map((role) =>
        role.name === 'Sales rep'
          ? { ...role, resources: { ...role.resources, customerNotes: { access: ['READ' as const, 'INSERT' as const] } } }
          : role,
      ),
      { name: 'No grants', defaultAccess: 'NONE', metaAccess: true },
      { name: 'Named', defaultAccess: 'NONE', resources: { onlyNamed: { access: ['READ'] }, purchaseorder: { access: ['READ'] } } },
    ],
  },
};

/** Per customer, the unpaid orders and what they owe, from a list of orders. */
function owedFrom(orders: Row[]): Map<string, { orders: number; amount_owed: number }> {
  const owed = new Map<string, { orders: number; amount_owed: Decimal }>();
  for (const order of orders.filter((o) => o.paid === false)) {
    const entry = owed.get(order.customer_name as string) ?? { orders: 0, amount_owed: new Decimal(0) };
    entry.orders += 1;
    entry.amount_owed = entry.amount_owed.plus(order.amount_owed as number);
    owed.set(order.customer_name as string, entry);
  }
  return new Map([...owed].map(([name, e]) => [name, { orders: e.orders, amount_owed: e.amount_owed.toNumber() }]));
}

describeEachTarget('function resources', (target) => {
  let t: TestApp;
  let demo: Api;
  let sam: Api;

  suiteApp(target, { project }, async (app) => {
    t = app;
    demo = await apiAs(app, 'demo');
    sam = await apiAs(app, 'sam');
  });

  describe('owedByCustomer (the demo)', () => {
    it("answers from the caller's own rows: sam's orders only", async () => {
      const all = (await demo.get('/owedByCustomer?pagesize=100').expect(200)).body as Row[];
      const allOrders = (await demo.get('/purchaseorder?pagesize=100').expect(200)).body as Row[];
      expect(new Map(all.map((e) => [e.customer_name, { orders: e.orders, amount_owed: e.amount_owed }]))).toEqual(owedFrom(allOrders));

      const his = (await sam.get('/owedByCustomer?pagesize=100').expect(200)).body as Row[];
      const hisOrders = (await sam.get('/purchaseorder?pagesize=100').expect(200)).body as Row[];
      expect(hisOrders.length).toBeLessThan(allOrders.length);
      expect(new Map(his.map((e) => [e.customer_name, { orders: e.orders, amount_owed: e.amount_owed }]))).toEqual(owedFrom(hisOrders));
      expect(his.reduce((n, e) => n + (e.orders as number), 0)).toBeLessThan(all.reduce((n, e) => n + (e.orders as number), 0));
    });

    it('pages an array answer like a list: pagesize, offset and a next_batch link', async () => {
      const all = (await demo.get('/owedByCustomer?pagesize=100').expect(200)).body as Row[];
      expect(all.length).toBeGreaterThan(2);
      const first = (await demo.get('/owedByCustomer?pagesize=2').expect(200)).body as Row[];
      expect(first.slice(0, 2)).toEqual(all.slice(0, 2));
      const next = (first[2]!['@metadata'] as { next_batch: string }).next_batch;
      expect(next).toMatch(/\/owedByCustomer\?pagesize=2&offset=2$/);
      const second = (await demo.getUrl(next).expect(200)).body as Row[];
      expect(second[0]).toEqual(all[2]);
    });

    it('checks its parameters', async () => {
      const res = await demo.get('/owedByCustomer?minOwed=lots').expect(400);
      expect(res.body.errorCode).toBe(4000);
      const unknown = await demo.get('/owedByCustomer?filter=x').expect(400);
      expect(unknown.body.errorMessage).toContain('"filter"');
      const rich = (await demo.get('/owedByCustomer?minOwed=1000&pagesize=100').expect(200)).body as Row[];
      expect(rich.every((e) => (e.amount_owed as number) >= 1000)).toBe(true);
    });

    it('refuses a role without a grant (403), and methods it does not answer (405)', async () => {
      const none = await apiWithRoles(t, ['No grants']);
      const res = await none.get('/owedByCustomer').expect(403);
      expect(res.body.errorCode).toBe(4030);
      const post = await demo.post('/owedByCustomer', {}).expect(405);
      expect(post.headers.allow).toBe('GET');
      await demo.delete('/owedByCustomer').expect(405);
    });

    it('is listed in @resources (JavaScript) and @resources/<name>, and documented in @docs', async () => {
      const resources = (await demo.get('/@resources?pagesize=1000').expect(200)).body as Row[];
      const entry = resources.find((r) => r.name === 'owedByCustomer');
      expect(entry).toEqual(
        expect.objectContaining({
          resource_type: 'JavaScript',
          is_collection: true,
          methods: ['GET'],
          '@metadata': { href: expect.stringMatching(/\/owedByCustomer$/) },
        }),
      );
      expect((await demo.get('/@resources/owedbycustomer').expect(200)).body).toEqual(expect.objectContaining({ name: 'owedByCustomer' }));
      const docs = (await demo.get('/@docs').expect(200)).body as { paths: Record<string, Record<string, { parameters: Row[] }>> };
      expect(Object.keys(docs.paths['/owedByCustomer']!)).toEqual(['get']);
      expect(docs.paths['/owedByCustomer']!.get!.parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'minOwed', in: 'query' })]),
      );
      expect(Object.keys(docs.paths['/customerNotes']!).sort()).toEqual(['get', 'post']);
      expect(Object.keys(docs.paths['/employee/{key}/giveRaise']!).sort()).toEqual(['get', 'post', 'put']);
    });
  });

  it('@functions lists the functions of tables', async () => {
    const functions = (await demo.get('/@functions').expect(200)).body as Row[];
    expect(functions).toEqual([
      expect.objectContaining({
        name: 'giveRaise',
        functionType: 'rowLevel',
        resource_names: ['employee'],
        methods: ['GET', 'POST', 'PUT'],
        parameters: [expect.objectContaining({ name: 'percentRaise', type_name: 'number', is_required: true })],
      }),
    ]);
  });

  it('shows the caller only the columns it may read, and writes through the rules with a txsummary', async () => {
    const mine = (await sam.get('/customerNotes?pagesize=3').expect(200)).body as Row[];
    expect(Object.keys(mine[0]!).sort()).toEqual(['balance', 'name']);
    // sam may not write a customer's credit limit: the function's write is refused as his own PUT is.
    const own = await sam.put('/customer/Alpha%20and%20Sons', { credit_limit: 1, '@metadata': { checksum: 'override' } });
    const through = await sam.post('/customerNotes?name=Alpha%20and%20Sons&raise=1', {});
    expect(own.status).toBeGreaterThanOrEqual(400);
    expect([through.status, through.body.errorCode]).toEqual([own.status, own.body.errorCode]);

    const res = await demo.post('/customerNotes?name=Alpha%20and%20Sons&raise=100', { note: 'good payer' }).expect(201);
    expect(res.body).toEqual({
      statusCode: 201,
      result: { name: 'Alpha and Sons', credit_limit: expect.any(Number), note: 'good payer' },
      txsummary: [
        expect.objectContaining({ name: 'Alpha and Sons', '@metadata': expect.objectContaining({ verb: 'UPDATE', resource: 'customer' }) }),
      ],
    });
    const refused = await demo.post('/customerNotes?name=Nobody', {}).expect(404);
    expect(refused.body).toEqual({ statusCode: 404, errorCode: 4048, errorMessage: 'No such customer.' });
  });

  it('reaches a role that names it only, when it takes explicit grants only', async () => {
    await (await apiAs(t, 'readonly')).get('/onlyNamed').expect(403);
    const named = await apiWithRoles(t, ['Named']);
    expect((await named.get('/onlyNamed').expect(200)).body).toEqual({ secret: false });
  });
});

describeEachTarget('function resources: boot', (target) => {
  it('refuses a project whose functions name unknown tables, attributes, roles or types, listing every problem', async () => {
    const bad: ProjectDefinition = {
      ...demoProject,
      functionResources: [
        ...(demoProject.functionResources ?? []),
        { name: 'customer', get: () => null },
        { name: 'rows', get: () => null, rows: { entity: Customer, attributes: ['nope'] } },
      ],
      functions: [
        {
          name: 'f',
          kind: 'resource',
          entity: Customer,
          roles: ['Ghost'],
          parameters: { p: { type: 'float' as 'number' } },
          run: () => null,
        },
      ],
    };
    await expect(startTestApp(target, { project: bad })).rejects.toThrow(
      [
        'The functions and function resources in the project are invalid:',
        '  - function "f": no role named "Ghost"',
        '  - function "f", parameter "p": unknown type "float" (number, integer, string, boolean, date)',
        '  - function resource "customer": a table resource has that name (names match case-insensitively)',
        '  - function resource "rows": rows.attributes: customer has no column "nope"',
      ].join('\n'),
    );
  });
});
