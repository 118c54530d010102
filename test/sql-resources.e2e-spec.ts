import { demoProject } from '../src/demo/project.js';
import type { SqlResourceDefinition } from '../src/extensions/sql-resources/sql-resource-definition.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import type { RoleDefinition } from '../src/security/role-definition.js';
import { apiAs, type Api } from './support/api.js';
import { describeEachTarget, startTestApp, suiteApp, type TestApp } from './support/test-app.js';

/**
 * Free SQL resources (issue 28, item 2): the demo's `customer_orders` and a few of this suite's own, over HTTP on
 * each database: listed in `@resources` and `@docs`, granted by name (403 / 4030 without), each caller's rows
 * only (the Sales rep `sam` sees his orders alone, `demo` every order), paged with next_batch, parameters bound
 * (an injection attempt is a value like any), a column the caller may not read refused before the SQL runs and
 * never answered, and a bad definition stopping the boot with every problem listed.
 */

type Row = Record<string, unknown>;

const EXTRA: SqlResourceDefinition[] = [
  {
    name: 'customer_limits',
    description: 'Uses a column a Sales rep may not read.',
    sql: 'SELECT c.name, c.credit_limit FROM {customer c} ORDER BY c.name',
  },
  { name: 'customer_columns', sql: 'SELECT c.* FROM {customer c} ORDER BY c.name' },
  {
    name: 'find_customer',
    parameters: { name: { type: 'string', required: true, maxLength: 60 } },
    sql: 'SELECT c.name FROM {customer c} WHERE c.name = :name',
  },
  {
    name: 'my_order_numbers',
    description: 'Raw tables, filtered by the caller itself.',
    system: true,
    sql: 'SELECT o.order_number FROM {purchaseorder o} WHERE o.salesrep_id = :@employee_id ORDER BY o.order_number',
  },
  { name: 'rep_only', sql: 'SELECT e.employee_id FROM {employee e} ORDER BY e.employee_id' },
];

function withSalesRepGrants(roles: RoleDefinition[]): RoleDefinition[] {
  return roles.map((role) =>
    role.name !== 'Sales rep'
      ? role
      : {
          ...role,
          resources: {
            ...role.resources,
            customer_limits: { access: ['READ'] },
            customer_columns: { access: ['READ'] },
            find_customer: { access: ['READ'] },
            my_order_numbers: { access: ['READ'] },
          },
        },
  );
}

const project: ProjectDefinition = {
  ...demoProject,
  sqlResources: [...(demoProject.sqlResources ?? []), ...EXTRA],
  roles: { ...demoProject.roles, roles: withSalesRepGrants(demoProject.roles.roles) },
};

/** Every row of a list, following its next_batch links. */
async function allPages(api: Api, path: string): Promise<{ rows: Row[]; pages: number }> {
  const rows: Row[] = [];
  let pages = 0;
  let res = await api.get(path).expect(200);
  for (;;) {
    pages += 1;
    const body = res.body as Row[];
    const last = body.at(-1) as { '@metadata'?: { next_batch?: string } } | undefined;
    const next = last?.['@metadata']?.next_batch;
    rows.push(...(next ? body.slice(0, -1) : body));
    if (!next) return { rows, pages };
    res = await api.getUrl(next).expect(200);
  }
}

/** Orders per customer and their total, from the table resource as the caller reads it. */
async function expectedTotals(api: Api): Promise<Map<string, { orders: number; total: number }>> {
  const { rows } = await allPages(api, '/purchaseorder?pagesize=100');
  const totals = new Map<string, { orders: number; total: number }>();
  for (const order of rows) {
    const entry = totals.get(order.customer_name as string) ?? { orders: 0, total: 0 };
    entry.orders += 1;
    entry.total += order.amount_total as number;
    totals.set(order.customer_name as string, entry);
  }
  return totals;
}

describeEachTarget('SQL resources', (target) => {
  let demo: Api;
  let sam: Api;

  suiteApp(target, { project }, async (app: TestApp) => {
    demo = await apiAs(app, 'demo');
    sam = await apiAs(app, 'sam');
  });

  it('is listed in @resources as FreeSQL and documented in @docs with its parameters', async () => {
    const resources = (await demo.get('/@resources?pagesize=100').expect(200)).body as Row[];
    const entry = resources.find((r) => r.name === 'customer_orders');
    expect(entry).toMatchObject({
      resource_type: 'FreeSQL',
      entity: null,
      readOnly: true,
      is_collection: true,
      parameters: [{ name: 'min_total', type: 'number', required: false }],
    });
    expect((entry!['@metadata'] as Row).href).toMatch(/\/customer_orders$/);
    const docs = (await demo.get('/@docs').expect(200)).body as { paths: Record<string, Record<string, { parameters: Row[] }>> };
    const get = docs.paths['/customer_orders']!.get!;
    expect(get.parameters.map((p) => p.name ?? p.$ref)).toEqual([
      'min_total',
      '#/components/parameters/pagesize',
      '#/components/parameters/offset',
    ]);
    expect(docs.paths['/customer_orders']!.post).toBeUndefined();
  });

  it("answers each caller's rows only: sam his own orders' totals, demo every order's", async () => {
    for (const api of [demo, sam]) {
      const expected = await expectedTotals(api);
      const { rows } = await allPages(api, '/customer_orders?pagesize=100');
      expect(rows.map((r) => r.name)).toEqual([...expected.keys()].sort());
      for (const row of rows) {
        const want = expected.get(row.name as string)!;
        expect(row.orders).toBe(want.orders);
        expect(typeof row.total).toBe('number');
        expect(row.total as number).toBeCloseTo(want.total, 2);
        expect(typeof row.balance).toBe('number');
      }
    }
    const samRows = (await allPages(sam, '/customer_orders?pagesize=100')).rows;
    const demoRows = (await allPages(demo, '/customer_orders?pagesize=100')).rows;
    expect(samRows.length).toBeGreaterThan(0);
    expect(samRows.length).toBeLessThan(demoRows.length);
  });

  it('pages with pagesize, offset and next_batch, in the order of the SELECT', async () => {
    const whole = ((await demo.get('/customer_orders?pagesize=100').expect(200)).body as Row[]).map((r) => r.name);
    const paged = await allPages(demo, '/customer_orders?pagesize=4');
    expect(paged.rows.map((r) => r.name)).toEqual(whole);
    expect(whole.length).toBeGreaterThan(8);
    expect(paged.pages).toBe(Math.ceil(whole.length / 4));
    const second = (await demo.get('/customer_orders?pagesize=4&offset=4').expect(200)).body as Row[];
    expect(second.slice(0, 4).map((r) => r.name)).toEqual(whole.slice(4, 8));
  });

  it('binds its parameters: a number filters, an injection attempt is a value that matches nothing', async () => {
    const all = ((await demo.get('/customer_orders?pagesize=100').expect(200)).body as Row[]).filter((r) => r.name);
    const cut = [...all].map((r) => r.total as number).sort((a, b) => a - b)[Math.floor(all.length / 2)]!;
    const over = (await demo.get(`/customer_orders?pagesize=100&min_total=${cut}`).expect(200)).body as Row[];
    expect(over.map((r) => r.name)).toEqual(all.filter((r) => (r.total as number) >= cut).map((r) => r.name));
    expect((await demo.get('/find_customer?name=Alpha%20and%20Sons').expect(200)).body).toEqual([{ name: 'Alpha and Sons' }]);
    for (const attempt of ["x' OR '1'='1", "x') OR 1=1 --", 'Alpha and Sons; DROP TABLE customer']) {
      expect((await demo.get(`/find_customer?name=${encodeURIComponent(attempt)}`).expect(200)).body).toEqual([]);
    }
    expect((await demo.get('/customer?pagesize=100').expect(200)).body.length).toBeGreaterThan(0);
  });

  it('refuses an unknown parameter, a value of the wrong type and a missing required one (400 / 4000), naming them', async () => {
    const unknown = await demo.get('/customer_orders?bogus=1').expect(400);
    expect(unknown.body).toMatchObject({ errorCode: 4000 });
    expect(unknown.body.errorMessage).toContain('"bogus"');
    const wrong = await demo.get('/customer_orders?min_total=lots').expect(400);
    expect(wrong.body.errorMessage).toContain('"min_total"');
    expect((await demo.get('/customer_orders?min_total=-1').expect(400)).body.errorMessage).toContain('at least 0');
    expect((await demo.get('/find_customer').expect(400)).body.errorMessage).toContain('"name" is required');
  });

  it('refuses a role without a grant (403 / 4030), a key (404) and writes (405 / 4050, Allow: GET)', async () => {
    const refused = await sam.get('/rep_only').expect(403);
    expect(refused.body).toMatchObject({ errorCode: 4030 });
    await demo.get('/customer_orders/1').expect(404);
    const post = await demo.post('/customer_orders', {}).expect(405);
    expect(post.body).toMatchObject({ errorCode: 4050 });
    expect(post.headers.allow).toBe('GET');
    await sam.post('/rep_only', {}).expect(403);
  });

  it('never shows a column the caller may not read: SQL that needs one is refused before it runs, * leaves it out', async () => {
    const limits = (await demo.get('/customer_limits?pagesize=3').expect(200)).body as Row[];
    expect(Object.keys(limits[0]!)).toEqual(['name', 'credit_limit']);
    const refused = await sam.get('/customer_limits').expect(403);
    expect(refused.body).toMatchObject({ errorCode: 4030 });
    expect(refused.body.errorMessage).toContain('customer.credit_limit');
    const samColumns = (await sam.get('/customer_columns?pagesize=3').expect(200)).body as Row[];
    expect(Object.keys(samColumns[0]!).sort()).toEqual(['balance', 'name']);
    const demoColumns = (await demo.get('/customer_columns?pagesize=3').expect(200)).body as Row[];
    expect(Object.keys(demoColumns[0]!).sort()).toEqual(['balance', 'credit_limit', 'name']);
  });

  it("binds a role global (:@employee_id) into a system resource's SQL", async () => {
    const own = (await allPages(sam, '/purchaseorder?pagesize=100')).rows.map((r) => r.order_number);
    const mine = (await allPages(sam, '/my_order_numbers?pagesize=100')).rows.map((r) => r.order_number);
    expect(mine).toEqual([...own].sort((a, b) => (a as number) - (b as number)));
    // demo has no employee_id: NULL matches no order.
    expect((await demo.get('/my_order_numbers').expect(200)).body).toEqual([]);
  });

  it('stops the boot on bad definitions, listing every problem', async () => {
    const bad: ProjectDefinition = {
      ...demoProject,
      sqlResources: [
        ...(demoProject.sqlResources ?? []),
        { name: 'customer', sql: 'SELECT 1 AS one' },
        { name: 'unknown_table', sql: 'SELECT x.a FROM {nosuch x}' },
        { name: 'bad_type', parameters: { p: { type: 'money' as never } }, sql: 'SELECT :p AS p' },
        { name: 'undeclared', sql: 'SELECT c.name FROM {customer c} WHERE c.name = :who' },
        { name: 'unused', parameters: { spare: { type: 'string' } }, sql: 'SELECT c.name FROM {customer c}' },
        { name: 'paged', sql: 'SELECT c.name FROM {customer c} LIMIT 5' },
        { name: 'two', sql: 'SELECT 1 AS one; DELETE FROM customer' },
        { name: 'bare', sql: 'SELECT name FROM customer' },
        { name: 'Customers', sql: 'SELECT 1 AS one' },
      ],
    };
    const boot = startTestApp(target, { project: bad });
    await expect(boot).rejects.toThrow(/SQL resources and procedures in the project are invalid/);
    const message = await boot.then(
      () => '',
      (error: unknown) => (error as Error).message,
    );
    for (const expected of [
      'SQL resource "customer": a table is called customer',
      'SQL resource "unknown_table": {nosuch} names no table',
      'SQL resource "bad_type", parameter "p": unknown type "money"',
      'SQL resource "undeclared": its SQL uses :who, which is not declared',
      'SQL resource "unused": parameter "spare" is declared but its SQL never uses :spare',
      'SQL resource "paged": its SQL has its own LIMIT',
      'SQL resource "two": its SQL has a ";"',
      'SQL resource "two": its SQL has the word DELETE',
      'SQL resource "bare": its SQL reads the table customer directly',
      'SQL resource "Customers": a custom resource is called Customers',
    ]) {
      expect(message).toContain(expected);
    }
  });

  it('stops the boot on SQL the database does not run, with its message', async () => {
    const bad: ProjectDefinition = {
      ...demoProject,
      sqlResources: [...(demoProject.sqlResources ?? []), { name: 'broken', sql: 'SELECT c.no_such_column FROM {customer c}' }],
    };
    await expect(startTestApp(target, { project: bad })).rejects.toThrow(/SQL resource "broken" does not run on this database/);
  });
});
