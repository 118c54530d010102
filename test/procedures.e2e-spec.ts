import { demoProject } from '../src/demo/project.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import { apiAs, type Api } from './support/api.js';
import { describeEachTarget, startTestApp, suiteApp, type TestApp, type TestTarget } from './support/test-app.js';

/**
 * Stored procedures (issue 28, item 5): the demo's `order_totals(customer_name)`, created by its migration on
 * MariaDB (a procedure) and PostgreSQL (a set-returning function), called with a bound argument by GET
 * (`arg.customer_name`) and POST, listed in `@procedures`, `@resources` and `@docs`, refused to a role that
 * does not name it; on SQLite the demo boots without it and a definition without `databases` stops the boot.
 */

type Row = Record<string, unknown>;
const ALPHA = 'Alpha and Sons';

/** Alpha and Sons' orders as the table resource answers them. */
async function alphaOrders(api: Api): Promise<Row[]> {
  const res = await api.get(`/purchaseorder?pagesize=100&sysfilter=${encodeURIComponent(`equal(customer_name:'${ALPHA}')`)}`).expect(200);
  return (res.body as Row[]).map((o) => ({ order_number: o.order_number, amount_total: o.amount_total, paid: o.paid }));
}

/** The result rows of a call, with `paid` as a boolean (MariaDB has no boolean type: its BOOLEAN is TINYINT(1), answered 0 or 1). */
function normalised(rows: Row[]): Row[] {
  return rows.map((r) => ({ ...r, paid: r.paid === true || r.paid === 1 }));
}

function routineSuite(target: TestTarget): void {
  let demo: Api;
  let sam: Api;
  let readOnly: Api;

  suiteApp(target, {}, async (app: TestApp) => {
    demo = await apiAs(app, 'demo');
    sam = await apiAs(app, 'sam');
    readOnly = await apiAs(app, 'readonly');
  });

  it("calls it by GET with a bound argument: one result set of the customer's orders", async () => {
    const res = await demo.get(`/order_totals?arg.customer_name=${encodeURIComponent(ALPHA)}`).expect(200);
    expect(res.body).toHaveLength(1);
    const rows = res.body[0] as Row[];
    expect(rows.length).toBeGreaterThan(0);
    expect(normalised(rows)).toEqual(await alphaOrders(demo));
    expect(typeof rows[0]!.amount_total).toBe('number');
  });

  it('calls it by POST with the arguments in the body', async () => {
    const res = await demo.post('/order_totals', { customer_name: ALPHA });
    expect(res.status).toBe(201);
    expect(normalised(res.body[0] as Row[])).toEqual(await alphaOrders(demo));
  });

  it('binds the argument: an injection attempt is a value that matches nothing', async () => {
    for (const attempt of ["x' OR '1'='1", "x'; DROP TABLE customer; --"]) {
      expect((await demo.get(`/order_totals?arg.customer_name=${encodeURIComponent(attempt)}`).expect(200)).body).toEqual([[]]);
    }
    await demo.get('/customer?pagesize=1').expect(200);
  });

  it('refuses an unknown argument and a too long one (400 / 4000)', async () => {
    const unknown = await demo.get('/order_totals?arg.customer=x').expect(400);
    expect(unknown.body).toMatchObject({ errorCode: 4000 });
    expect(unknown.body.errorMessage).toContain('"arg.customer"');
    expect((await demo.get('/order_totals?customer_name=x').expect(400)).body.errorMessage).toContain('arg.customer_name');
    await demo.get(`/order_totals?arg.customer_name=${'x'.repeat(1001)}`).expect(400);
  });

  it('refuses roles that do not name it (403 / 4030), even with a default access of ALL or READ', async () => {
    expect((await sam.get(`/order_totals?arg.customer_name=x`).expect(403)).body).toMatchObject({ errorCode: 4030 });
    expect((await readOnly.get(`/order_totals?arg.customer_name=x`).expect(403)).body).toMatchObject({ errorCode: 4030 });
    await readOnly.post('/order_totals', { customer_name: 'x' }).expect(403);
  });

  it('is listed in @procedures and @resources (StoredProcedure) with its argument, and documented in @docs', async () => {
    const procedures = (await demo.get('/@procedures').expect(200)).body as Row[];
    expect(procedures).toEqual([
      expect.objectContaining({
        name: 'order_totals',
        resource_type: 'StoredProcedure',
        parameters: [{ name: 'customer_name', type: 'string', required: false }],
      }),
    ]);
    const resources = (await demo.get('/@resources?pagesize=100').expect(200)).body as Row[];
    expect(resources.some((r) => r.name === 'order_totals' && r.resource_type === 'StoredProcedure')).toBe(true);
    const docs = (await demo.get('/@docs').expect(200)).body as { paths: Record<string, Record<string, { parameters?: Row[] }>> };
    expect(docs.paths['/order_totals']!.get!.parameters!.map((p) => p.name)).toEqual(['arg.customer_name']);
    expect(docs.paths['/order_totals']!.post).toBeDefined();
  });

  it('stops the boot on a procedure the database lacks, listing every problem', async () => {
    const bad: ProjectDefinition = {
      ...demoProject,
      procedures: [...(demoProject.procedures ?? []), { name: 'no_such_routine' }, { name: 'customer' }, { name: 'order_totals' }],
    };
    const message = await startTestApp(target, { project: bad }).then(
      async (t) => {
        await t.close();
        return 'booted';
      },
      (error: unknown) => (error as Error).message,
    );
    expect(message).toContain('procedure "no_such_routine": the database has no procedure or function no_such_routine');
    expect(message).toContain('procedure "customer": a table is called customer');
    expect(message).toContain('procedure "order_totals" is defined twice');
  });
}

describeEachTarget('stored procedures', (target) => {
  if (target.database !== 'sqlite') {
    routineSuite(target);
    return;
  }
  // SQLite has no stored procedures or functions: the demo declares its routine for MariaDB and PostgreSQL only.
  let demo: Api;
  let app: TestApp;
  suiteApp(target, {}, async (started: TestApp) => {
    app = started;
    demo = await apiAs(started, 'demo');
  });

  it('boots the demo without its routine: @procedures is empty and the name is not served', async () => {
    expect((await demo.get('/@procedures').expect(200)).body).toEqual([]);
    expect((await demo.get('/order_totals').expect(404)).body).toMatchObject({ errorCode: 4040 });
  });

  it('stops the boot on a procedure declared for every database', async () => {
    const bad: ProjectDefinition = { ...demoProject, procedures: [{ name: 'order_totals' }] };
    await expect(startTestApp(target, { project: bad })).rejects.toThrow(/procedure "order_totals": SQLite has no stored procedures/);
  });

  it('refuses a role that does not name it (403 / 4030) as on the other databases', async () => {
    const sam = await apiAs(app, 'sam');
    expect((await sam.get('/order_totals').expect(403)).body).toMatchObject({ errorCode: 4030 });
  });
});
