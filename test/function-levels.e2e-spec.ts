import { demoProject } from '../src/demo/project.js';
import { demoResources } from '../src/demo/resources.js';
import { demoRoles } from '../src/demo/roles.js';
import type { FunctionResourceDefinition } from '../src/extensions/functions/function-definition.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import { apiAs, apiWithRoles, type Api } from './support/api.js';
import { bootFailureOf, describeEachTarget, suiteApp, testTargets, type TestApp } from './support/test-app.js';

/**
 * A function resource as a level of a custom resource (issue 28, item 1; LAC's JavaScript resource inside a custom
 * resource): the demo's `CustomerDebts` shows, per customer, what `owedByCustomer` answers for it (`Owed`), run as the
 * caller with the customer's `name` as its `customer` parameter. It is read-only (a PUT of what was read writes
 * nothing of it), left out for a caller whose roles do not grant the function resource, cut at pagesize with a link
 * to the function resource, and documented in `@docs`; boot refuses one that names what does not exist.
 */

type Row = Record<string, unknown>;

/** Numbers 1..count, for the test project's level whose array is longer than a page. */
const countTo: FunctionResourceDefinition = {
  name: 'countTo',
  parameters: { count: { type: 'integer', min: 0, max: 50 } },
  get: ({ parameters, containing }) =>
    Array.from({ length: (parameters.count as number | undefined) ?? 0 }, (_, i) => ({ n: i + 1, of: containing?.name ?? null })),
};

const project: ProjectDefinition = {
  ...demoProject,
  functionResources: [...(demoProject.functionResources ?? []), countTo],
  resources: [
    ...demoResources,
    {
      name: 'ProductCounts',
      entity: 'product',
      attributes: ['product_number', 'name'],
      functions: [{ name: 'Numbers', functionResource: 'countTo', parameters: { count: 'product_number' } }],
    },
  ],
  roles: {
    globals: demoRoles.globals,
    roles: [
      ...demoRoles.roles,
      // Reads customers, and is granted nothing else by name: owedByCustomer's level is left out for it.
      { name: 'Customers only', defaultAccess: 'NONE', resources: { customer: { access: ['READ', 'UPDATE'] } } },
    ],
  },
};

describeEachTarget('function resources as levels of custom resources', (target) => {
  let t: TestApp;
  let demo: Api;
  let sam: Api;

  suiteApp(target, { project }, async (app) => {
    t = app;
    demo = await apiAs(app, 'demo');
    sam = await apiAs(app, 'sam');
  });

  it("shows per customer what owedByCustomer answers for it, as the caller: sam's own orders only", async () => {
    for (const caller of [demo, sam]) {
      const debts = (await caller.get('/CustomerDebts?pagesize=100').expect(200)).body as Row[];
      expect(debts.length).toBeGreaterThan(1);
      const owed = (await caller.get('/owedByCustomer?pagesize=100').expect(200)).body as Row[];
      for (const customer of debts) {
        const expected = owed.filter((o) => o.customer_name === customer.name);
        expect(customer.Owed).toEqual(expected);
      }
      expect(debts.some((c) => (c.Owed as Row[]).length > 0)).toBe(true);
    }
    // The same customer owes sam's orders' share to sam, and every order's to demo.
    const demoOwed = (await demo.get('/owedByCustomer?pagesize=100').expect(200)).body as Row[];
    const samOwed = (await sam.get('/owedByCustomer?pagesize=100').expect(200)).body as Row[];
    const total = (rows: Row[]): number => rows.reduce((n, r) => n + (r.orders as number), 0);
    expect(total(samOwed)).toBeLessThan(total(demoOwed));
  });

  it('reads one object by key with its level too, and passes a name with a quote as one bound value', async () => {
    const [first] = (await demo.get('/CustomerDebts?pagesize=1').expect(200)).body as Row[];
    const href = (first!['@metadata'] as { href: string }).href;
    const [again] = (await demo.getUrl(href).expect(200)).body as Row[];
    expect(again!.Owed).toEqual(first!.Owed);

    // A customer whose name has a quote and a backslash, and an unpaid order: owedByCustomer's filter binds the name whole.
    const name = "O'Brien \\ Sons";
    await demo.post('/customer', { name, credit_limit: 1000 }).expect(201);
    await demo.post('/purchaseorder', { customer_name: name, paid: false }).expect(201);
    const debts = (await demo.get('/CustomerDebts?pagesize=100').expect(200)).body as Row[];
    const obrien = debts.find((c) => c.name === name)!;
    expect(obrien.Owed).toEqual([{ customer_name: name, orders: 1, amount_owed: 0 }]);
  });

  it('leaves the level out for a caller whose roles do not grant the function resource, and still serves the objects', async () => {
    const reader = await apiWithRoles(t, ['Customers only']);
    await reader.get('/owedByCustomer').expect(403);
    const debts = (await reader.get('/CustomerDebts?pagesize=100').expect(200)).body as Row[];
    expect(debts.length).toBeGreaterThan(1);
    expect(debts.every((c) => !('Owed' in c) && typeof c.name === 'string')).toBe(true);
  });

  it('writes nothing of it: a PUT of the object as read (Owed included) updates the customer alone', async () => {
    const [first] = (await demo.get('/CustomerDebts?pagesize=1').expect(200)).body as Row[];
    const res = await demo.put(`/CustomerDebts`, { ...first, balance: first!.balance }).expect(200);
    expect(res.body.statusCode).toBe(200);
    // A changed Owed is not written either (it is no column), and is not refused.
    await demo.put(`/CustomerDebts`, { ...first, Owed: [{ anything: 1 }] }).expect(200);
    const reader = await apiWithRoles(t, ['Customers only']);
    await reader.put(`/CustomerDebts`, { ...first, Owed: 'ignored' }).expect(200);
  });

  it('cuts an array longer than pagesize, with a next_batch link to the function resource itself', async () => {
    const products = (await demo.get('/ProductCounts?pagesize=100').expect(200)).body as Row[];
    const dear = products.find((p) => (p.product_number as number) >= 3);
    expect(dear).toBeDefined();
    // Each product's list is as long as its number: the first two have theirs whole.
    expect(products.find((p) => p.product_number === 1)!.Numbers).toEqual([
      { n: 1, of: products.find((p) => p.product_number === 1)!.name },
    ]);
    const [one] = (await demo.getUrl((dear!['@metadata'] as { href: string }).href + '?pagesize=2').expect(200)).body as Row[];
    const numbers = one!.Numbers as Row[];
    expect(numbers.slice(0, 2)).toEqual([
      { n: 1, of: dear!.name },
      { n: 2, of: dear!.name },
    ]);
    const next = (numbers[2]!['@metadata'] as { next_batch: string }).next_batch;
    expect(next).toMatch(new RegExp(`/countTo\\?count=${dear!.product_number as number}&pagesize=2&offset=2$`));
    // The function resource answers the rest (called alone, it has no containing object).
    const rest = (await demo.getUrl(next).expect(200)).body as Row[];
    expect(rest[0]).toEqual({ n: 3, of: null });
  });

  it('is documented in @docs as a read-only property of the level', async () => {
    const docs = (await demo.get('/@docs').expect(200)).body as { components: { schemas: Record<string, Row> } };
    const schema = Object.values(docs.components.schemas).find((s) => s.title === 'CustomerDebts')!;
    const owed = (schema.properties as Record<string, Row>).Owed!;
    expect(owed.readOnly).toBe(true);
    expect(owed.description).toContain('owedByCustomer');
  });
});

describe('function resources as levels: bad definitions', () => {
  const [target] = testTargets();

  /** A boot of the test project with these custom resources besides the demo's: the error it stops with. */
  const bootFailure = (resources: NonNullable<ProjectDefinition['resources']>): Promise<Error | undefined> =>
    bootFailureOf(target!, { ...project, resources: [...demoResources, ...resources] });

  it('stop the boot naming every unknown function resource and parameter', async () => {
    const failure = await bootFailure([
      {
        name: 'Broken',
        entity: 'customer',
        functions: [
          { name: 'A', functionResource: 'noSuchThing' },
          { name: 'B', functionResource: 'owedByCustomer', parameters: { nosuch: 'name' } },
        ],
      },
    ]);
    expect(failure?.name).toBe('FunctionsError');
    expect(failure!.message).toContain('custom resource Broken, function sub-resource "A": no function resource is called noSuchThing');
    expect(failure!.message).toContain('function sub-resource "B": the function resource owedByCustomer declares no parameter nosuch');
  });

  it("stop the boot naming a level's bad names and attributes", async () => {
    const failure = await bootFailure([
      {
        name: 'Broken',
        entity: 'customer',
        attributes: ['name'],
        children: [{ name: 'Orders', entity: 'purchaseorder' }],
        functions: [
          { name: 'Orders', functionResource: 'owedByCustomer' },
          { name: 'Owed', functionResource: 'owedByCustomer', parameters: { customer: 'balance' } },
          { name: 'a.b', functionResource: 'owedByCustomer' },
        ],
      },
    ]);
    expect(failure?.name).toBe('CustomResourceError');
    expect(failure!.message).toContain('"Orders": two sub-resources of Broken have that name');
    expect(failure!.message).toContain('parameter customer is taken from "balance", which is no attribute of Broken');
    expect(failure!.message).toContain("no '.'");
  });
});
