import { apiAs, apiWithRoles, type Api } from './support/api.js';
import { capturedLog, type CapturedLog } from './support/captured-log.js';
import { demoProjectWithRoles } from './support/demo-project.js';
import { ledgerProject } from './fixtures/ledger/ledger-project.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

interface Firing {
  type: string;
  name: string;
  attribute?: string;
  '@metadata'?: { href: string; resource: string; verb: string };
  key?: Record<string, unknown>;
  old?: unknown;
  new?: unknown;
  outcome?: string;
}

const q = encodeURIComponent;

/**
 * The demo, with roles that may read the API's design (metaAccess) and write line items, but
 * may not read customers' balances, or no customer at all.
 */
const project = demoProjectWithRoles([
  {
    name: 'Designer without balances',
    defaultAccess: 'ALL',
    metaAccess: true,
    resources: { customer: { access: ['READ'], readColumns: ['name', 'credit_limit'] } },
  },
  {
    name: 'Designer without customers',
    defaultAccess: 'ALL',
    metaAccess: true,
    resources: { customer: { access: ['READ'], rowFilter: "name = 'Nobody at all'" } },
  },
]);

describeEachTarget('rulelog=true: the rules that fired, in order, with old and new values', (target) => {
  let t: TestApp;
  let log: CapturedLog;
  let demo: Api;
  let sam: Api;
  let noBalances: Api;
  let noCustomers: Api;
  const customer = 'Rule Log Traders';
  let product: number;
  let order: number;

  suiteApp(
    target,
    () => {
      log = capturedLog('debug');
      return { project, logger: log.logger };
    },
    async (app) => {
      t = app;
      demo = await apiAs(t, 'demo');
      sam = await apiAs(t, 'sam');
      noBalances = await apiWithRoles(t, ['Designer without balances']);
      noCustomers = await apiWithRoles(t, ['Designer without customers']);
      await demo.post('/customer', { name: customer, credit_limit: 100000 }).expect(201);
      const made = await demo.post('/product', { name: 'Rule Log Lamp', price: 12.5 }).expect(201);
      product = (made.body.txsummary as Array<{ product_number: number }>)[0]!.product_number;
      const placed = await demo.post('/purchaseorder', { customer_name: customer }).expect(201);
      order = (placed.body.txsummary as Array<{ order_number: number }>)[0]!.order_number;
    },
  );

  const balance = async (): Promise<number> =>
    ((await demo.get(`/customer/${q(customer)}`).expect(200)).body as Array<{ balance: number }>)[0]!.balance;
  const item = (qty: number) => ({ order_number: order, product_number: product, qty_ordered: qty });

  it('is absent unless asked for', async () => {
    const res = await demo.post('/lineitem', item(1)).expect(201);
    expect(res.body).not.toHaveProperty('rulelog');
  });

  it("lists a line item's firings in the order they ran, the sum on customer.balance with its old and new value", async () => {
    const before = await balance();
    const res = await demo.post('/lineitem?rulelog=true', item(2)).expect(201);
    const firings = res.body.rulelog as Firing[];
    const sum = firings.find((f) => f.name === 'sum customer.balance')!;
    expect(sum).toMatchObject({
      type: 'sum',
      attribute: 'balance',
      '@metadata': { resource: 'main:customer', verb: 'UPDATE', href: expect.stringMatching(/\/customer\/Rule%20Log%20Traders$/) },
      key: { name: customer },
      old: before,
      new: before + 25,
    });
    expect(await balance()).toBe(before + 25);
    const names = firings.map((f) => f.name);
    // The line item's copy and formula, then its order's sum and formula, then the customer's sum and constraints.
    const at = (name: string): number => names.indexOf(name);
    expect(at('copy lineitem.product_price')).toBeGreaterThanOrEqual(0);
    expect(at('copy lineitem.product_price')).toBeLessThan(at('formula lineitem.amount'));
    expect(at('formula lineitem.amount')).toBeLessThan(at('sum purchaseorder.amount_total'));
    expect(at('sum purchaseorder.amount_total')).toBeLessThan(at('formula purchaseorder.amount_owed'));
    expect(at('formula purchaseorder.amount_owed')).toBeLessThan(at('sum customer.balance'));
    const line = firings.find((f) => f.name === 'copy lineitem.product_price')!;
    expect(line).toMatchObject({ '@metadata': { resource: 'lineitem', verb: 'INSERT' }, old: null, new: 12.5 });
    expect(Object.keys(line.key!)).toEqual(['lineitem_id']);
    expect(firings.find((f) => f.name === 'formula lineitem.amount')).toMatchObject({ old: null, new: 25 });
    // Checks and events have an outcome instead of values.
    expect(firings.filter((f) => f.type === 'constraint').map((f) => f.outcome)).toEqual(['passed', 'passed']);
    expect(firings.find((f) => f.type === 'after')).toMatchObject({ outcome: 'ran', '@metadata': { resource: 'main:purchaseorder' } });
    // Every row named is a row of the txsummary.
    const hrefs = (res.body.txsummary as Array<{ '@metadata': { href: string } }>).map((r) => r['@metadata'].href);
    for (const firing of firings) expect(hrefs).toContain(firing['@metadata']!.href);
  });

  it('gives a role that cannot read balances no firing on them, and none of their values', async () => {
    const before = await balance();
    const res = await noBalances.post('/lineitem?rulelog=true', item(3)).expect(201);
    const firings = res.body.rulelog as Firing[];
    expect(firings.map((f) => f.name)).toEqual(expect.arrayContaining(['formula lineitem.amount', 'sum purchaseorder.amount_total']));
    expect(firings.filter((f) => f.attribute === 'balance')).toEqual([]);
    // The customer row is there (the caller reads its name), its constraints with it, but no value of its balance.
    expect(
      firings.filter((f) => f['@metadata']?.resource === 'main:customer').every((f) => f.old === undefined && f.new === undefined),
    ).toBe(true);
    expect(await balance()).toBe(before + 37.5);
  });

  it('gives a role that cannot read the customer no firing on its row at all', async () => {
    const res = await noCustomers.post('/lineitem?rulelog=true', item(1)).expect(201);
    const firings = res.body.rulelog as Firing[];
    expect(firings.length).toBeGreaterThan(0);
    expect(firings.filter((f) => f['@metadata']?.resource === 'main:customer')).toEqual([]);
    expect(JSON.stringify(firings)).not.toContain(customer);
  });

  it('refuses a caller without meta access 403 / 4030, before anything is written', async () => {
    const count = async (): Promise<number> => ((await demo.get(`/lineitem?pagesize=5000`).expect(200)).body as unknown[]).length;
    const mine = ((await sam.get('/purchaseorder?pagesize=1').expect(200)).body as Array<{ order_number: number }>)[0]!.order_number;
    const items = await count();
    const res = await sam.post('/lineitem?rulelog=true', { order_number: mine, product_number: product, qty_ordered: 1 });
    expect({ status: res.status, errorCode: res.body.errorCode }).toEqual({ status: 403, errorCode: 4030 });
    expect(res.body.errorMessage).toMatch(/rule log/);
    expect(await count()).toBe(items);
    // Without the parameter the same write goes through.
    await sam.post('/lineitem', { order_number: mine, product_number: product, qty_ordered: 1 }).expect(201);
  });

  it('refuses a value other than true or false: 400 / 4000', async () => {
    const res = await demo.post('/lineitem?rulelog=yes', item(1));
    expect({ status: res.status, errorCode: res.body.errorCode }).toEqual({ status: 400, errorCode: 4000 });
  });

  it('writes one debug line per firing under the request id, as the caller may see it, also unasked', async () => {
    const before = await balance();
    log.clear();
    const res = await demo.post('/lineitem', item(4)).expect(201);
    const requestId = res.headers['x-request-id'];
    const lines = log.records().filter((r) => r.msg === 'rule fired');
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.every((r) => r.requestId === requestId && r.level === 20)).toBe(true);
    expect(lines.map((r) => r.firing)).toContainEqual(
      expect.objectContaining({ name: 'sum customer.balance', key: { name: customer }, old: before, new: before + 50 }),
    );

    log.clear();
    await noBalances.post('/lineitem', item(1)).expect(201);
    const hidden = log.records().filter((r) => r.msg === 'rule fired');
    expect(hidden.length).toBeGreaterThan(0);
    expect(hidden.filter((r) => (r.firing as Firing).attribute === 'balance')).toEqual([]);
    // Never a secret: the request's token is nowhere in the lines.
    expect(JSON.stringify(hidden)).not.toMatch(/apikey|authorization/i);
  });

  it('writes no such line when the service logs above debug', async () => {
    log.logger.level = 'info';
    try {
      log.clear();
      await demo.post('/lineitem', item(1)).expect(201);
      expect(log.records().filter((r) => r.msg === 'rule fired')).toEqual([]);
    } finally {
      log.logger.level = 'debug';
    }
  });
});

describeEachTarget('rulelog=true and rulesummary=true list parent checks that passed', (target) => {
  let demo: Api;

  suiteApp(target, { project: ledgerProject }, async (app) => {
    demo = await apiAs(app, 'demo');
  });

  it('names the check on the entry it passed on, with the sum and formula it caused', async () => {
    const account = await demo.post('/account', { name: 'Rule log account' }).expect(201);
    const accountId = (account.body.txsummary as Array<{ account_id: number }>)[0]!.account_id;
    const res = await demo.post('/entry?rulelog=true&rulesummary=true', { account_id: accountId, amount: 7 }).expect(201);
    const firings = res.body.rulelog as Firing[];
    expect(firings.find((f) => f.type === 'parentCheck')).toMatchObject({ outcome: 'passed', '@metadata': { resource: 'entry' } });
    expect(firings.find((f) => f.name === 'sum account.total')).toMatchObject({ old: 0, new: 7 });
    const summary = res.body.rulesummary as Array<{ '@metadata': { resource: string }; rules: Array<{ type: string }> }>;
    expect(summary.find((e) => e['@metadata'].resource === 'entry')!.rules.map((r) => r.type)).toContain('parentCheck');
  });
});
