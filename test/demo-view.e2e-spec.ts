import { Decimal } from 'decimal.js';
import { API_HOST, apiAs, type Api } from './support/api.js';
import { describeEachTarget, suiteApp } from './support/test-app.js';

/**
 * The demo's view (issue 28: "a view in the demo, served read-only"): `customer_summary`, made by
 * the demo's migration 1763900005000 on SQLite, MariaDB and PostgreSQL. Its rows are what the
 * tables say (figured here from /customer and /purchaseorder), keyed by name (hrefs, one row's
 * URL); @views and @resources list it read-only, @docs documents GET alone, every write is
 * 405 / 4050 with Allow: GET, and the Sales rep, whose role does not grant it (it counts every
 * rep's orders), may not read it. views.e2e-spec covers views in general.
 */
type Row = Record<string, unknown> & { '@metadata'?: { href?: string; checksum?: string } };
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies of many shapes

const ALPHA = 'Alpha and Sons';
const q = encodeURIComponent;

/** What the view should hold, figured from the tables as the Full access role reads them. */
async function expectedSummary(api: Api): Promise<Row[]> {
  const customers = (await api.get('/customer?pagesize=100').expect(200)).body as Row[];
  const orders = (await api.get('/purchaseorder?pagesize=100').expect(200)).body as Row[];
  expect(customers.length).toBeLessThan(100);
  expect(orders.length).toBeLessThan(100);
  return customers
    .map((c) => {
      const mine = orders.filter((o) => o.customer_name === c.name);
      const unpaid = mine.filter((o) => o.paid !== true);
      const owed = unpaid.reduce((sum, o) => sum.plus(String(o.amount_owed)), new Decimal(0));
      return {
        name: c.name,
        balance: c.balance,
        credit_limit: c.credit_limit,
        order_count: mine.length,
        unpaid_orders: unpaid.length,
        unpaid_total: Number(owed.toFixed(4)),
      };
    })
    .sort((a, b) => (String(a.name) < String(b.name) ? -1 : 1));
}

/** The rows without @metadata, in name order. */
const bare = (rows: Row[]): Row[] =>
  rows.map(({ '@metadata': _, ...row }) => row).sort((a, b) => (String(a.name) < String(b.name) ? -1 : 1));

describeEachTarget("the demo's view, customer_summary, read-only", (target) => {
  let demo: Api;
  let readonly: Api;
  let sam: Api;
  let origin: string;

  suiteApp(target, {}, async (app) => {
    [demo, readonly, sam] = (await Promise.all(['demo', 'readonly', 'sam'].map((user) => apiAs(app, user)))) as [Api, Api, Api];
    origin = `http://${API_HOST}${app.base}`;
  });

  it('answers one row per customer with the figures the tables hold, each with an href and a checksum (its key is name)', async () => {
    const rows = (await demo.get('/customer_summary?pagesize=100').expect(200)).body as Row[];
    const expected = await expectedSummary(demo);
    expect(rows).toHaveLength(30);
    expect(bare(rows)).toEqual(expected);
    // The database's sum of unpaid orders is the balance the rules keep.
    for (const row of rows) expect(row.unpaid_total).toBe(row.balance);
    // Some customers have orders, paid ones among them; most have none (0, not null).
    expect(rows.filter((r) => (r.order_count as number) > 0).length).toBeGreaterThan(5);
    expect(rows.some((r) => (r.unpaid_orders as number) < (r.order_count as number))).toBe(true);
    expect(rows.find((r) => r.order_count === 0)).toMatchObject({ unpaid_orders: 0, unpaid_total: 0, balance: 0 });

    const alpha = rows.find((r) => r.name === ALPHA)!;
    expect(alpha['@metadata']).toEqual({
      href: `${origin}/customer_summary/${q(ALPHA)}`,
      checksum: expect.stringMatching(/^R:[0-9a-f]{16}$/),
    });
    const one = await readonly.get(`/customer_summary/${q(ALPHA)}`).expect(200);
    expect(one.body).toEqual([alpha]);
    // Filters and orders as on a table.
    const owing = (
      await readonly.get(`/customer_summary?filter=${q('unpaid_orders > 0')}&order=${q('unpaid_total desc, name')}`).expect(200)
    ).body as Row[];
    expect(owing.map((r) => r.name)).toEqual(
      expected
        .filter((r) => (r.unpaid_orders as number) > 0)
        .sort((a, b) => (b.unpaid_total as number) - (a.unpaid_total as number) || (String(a.name) < String(b.name) ? -1 : 1))
        .map((r) => r.name),
    );
  });

  it('filters and orders by its computed columns as by a table column: integers and decimals alike', async () => {
    const expected = await expectedSummary(demo);
    for (const [filter, keep] of [
      ['unpaid_total > 500', (r: Row) => (r.unpaid_total as number) > 500],
      [
        'unpaid_total >= 117.5 and unpaid_total <= 530.2',
        (r: Row) => (r.unpaid_total as number) >= 117.5 && (r.unpaid_total as number) <= 530.2,
      ],
      ['unpaid_total = 0', (r: Row) => r.unpaid_total === 0],
      ['order_count >= 2', (r: Row) => (r.order_count as number) >= 2],
    ] as const) {
      const rows = (await readonly.get(`/customer_summary?pagesize=100&filter=${q(filter)}`).expect(200)).body as Row[];
      const names = expected.filter(keep).map((r) => r.name);
      expect([filter, rows.map((r) => r.name)]).toEqual([filter, names]);
      expect(names.length).toBeGreaterThan(0);
    }
    const sys = (await readonly.get(`/customer_summary?sysfilter=${q('greater(unpaid_total:500)')}`).expect(200)).body as Row[];
    expect(sys.map((r) => r.name)).toEqual(expected.filter((r) => (r.unpaid_total as number) > 500).map((r) => r.name));
  });

  it('follows the tables: a new order shows in the view when it is next read', async () => {
    const before = ((await demo.get(`/customer_summary/${q(ALPHA)}`).expect(200)).body as Row[])[0]!;
    const order = (await demo.post('/purchaseorder', { customer_name: ALPHA, salesrep_id: 1 }).expect(201)).body as Json;
    const orderNumber = (order.txsummary as Array<Row & { '@metadata': { resource: string } }>).find((r) =>
      /(^|:)purchaseorder$/.test(r['@metadata'].resource),
    )!.order_number;
    // Two hammers at 10.00.
    await demo.post('/lineitem', { order_number: orderNumber, product_number: 1, qty_ordered: 2 }).expect(201);
    const after = ((await demo.get(`/customer_summary/${q(ALPHA)}`).expect(200)).body as Row[])[0]!;
    expect(after).toMatchObject({
      order_count: (before.order_count as number) + 1,
      unpaid_orders: (before.unpaid_orders as number) + 1,
      unpaid_total: (before.unpaid_total as number) + 20,
      balance: (before.balance as number) + 20,
    });
    expect(after['@metadata']!.checksum).not.toBe(before['@metadata']!.checksum);
    expect(bare((await demo.get('/customer_summary?pagesize=100').expect(200)).body as Row[])).toEqual(await expectedSummary(demo));
  });

  it('@views lists it (not @tables), @resources marks it read-only, @docs documents GET alone', async () => {
    const views = (await readonly.get('/@views').expect(200)).body as Json[];
    expect(views.map((v) => v.name)).toEqual(['customer_summary']);
    expect(views[0]).toMatchObject({
      '@metadata': { href: `${origin}/@views/main:customer_summary` },
      readOnly: true,
      entity: 'customer_summary',
      primaryKey: ['name'],
    });
    const view = (await readonly.get('/@views/customer_summary').expect(200)).body as Json;
    expect((view.columns as Json[]).map((c) => c.name)).toEqual([
      'name',
      'balance',
      'credit_limit',
      'order_count',
      'unpaid_orders',
      'unpaid_total',
    ]);
    expect(((await readonly.get('/@tables').expect(200)).body as Json[]).map((x) => x.name)).not.toContain('customer_summary');
    await readonly.get('/@tables/customer_summary').expect(404);

    const resources = (await readonly.get('/@resources').expect(200)).body as Json[];
    expect(resources.find((r) => r.name === 'customer_summary')).toMatchObject({
      '@metadata': { href: `${origin}/customer_summary` },
      resource_type: 'TableBased',
      readOnly: true,
      primaryKey: ['name'],
    });

    const doc = (await readonly.get('/@docs').expect(200)).body as Json;
    expect(Object.keys(doc.paths['/customer_summary'])).toEqual(['get']);
    expect(Object.keys(doc.paths['/customer_summary/{key}'])).toEqual(['parameters', 'get']);
    expect(String(doc.paths['/customer_summary'].get.description)).toMatch(/405 \/ 4050/);
    expect(doc.components.schemas['customer_summary.new']).toBeUndefined();
    const schema = doc.components.schemas.customer_summary as Json;
    expect(schema.description).toMatch(/read-only; key: `name`/);
    expect(Object.entries(schema.properties as Json).every(([name, p]) => name === '@metadata' || p.readOnly === true)).toBe(true);
  });

  it('refuses every write with 405 / 4050 and Allow: GET, and writes nothing', async () => {
    const before = (await demo.get('/customer_summary?pagesize=100').expect(200)).body as Row[];
    for (const api of [demo, readonly]) {
      for (const res of [
        await api.post('/customer_summary', { name: 'Zed', balance: 0 }),
        await api.put('/customer_summary', [
          { '@metadata': { href: `${origin}/customer_summary/${q(ALPHA)}`, checksum: 'override' }, balance: 1 },
        ]),
        await api.put(`/customer_summary/${q(ALPHA)}`, { '@metadata': { checksum: 'override' }, balance: 1 }),
        await api.delete(`/customer_summary/${q(ALPHA)}?checksum=override`),
      ]) {
        expect([res.status, res.body]).toEqual([
          405,
          { statusCode: 405, errorCode: 4050, errorMessage: 'customer_summary is a view, which is read-only: only GET.' },
        ]);
        expect(res.headers.allow).toBe('GET');
      }
    }
    expect((await demo.get('/customer_summary?pagesize=100').expect(200)).body).toEqual(before);
  });

  it("is not the Sales rep's: it counts every rep's orders, so his role does not grant it (403 / 4030), while his own orders stay his", async () => {
    for (const res of [
      await sam.get('/customer_summary'),
      await sam.get(`/customer_summary/${q(ALPHA)}`),
      await sam.get(`/customer_summary?filter=${q("name = 'Alpha and Sons'")}`),
      await sam.post('/customer_summary', { name: 'Zed' }),
    ]) {
      expect([res.status, res.body.errorCode]).toEqual([403, 4030]);
    }
    // Nor does the meta API tell him of it: his role has no meta access.
    expect((await sam.get('/@views').expect(403)).body.errorCode).toBe(4030);
    // What the view would have shown him beyond his grants: other reps' orders, which his row filter hides.
    const all = (await demo.get('/purchaseorder?pagesize=100').expect(200)).body as Row[];
    const his = (await sam.get('/purchaseorder?pagesize=100').expect(200)).body as Row[];
    expect(his.length).toBeGreaterThan(0);
    expect(his.length).toBeLessThan(all.length);
    expect(his.every((o) => o.salesrep_id === 1)).toBe(true);
  });
});
