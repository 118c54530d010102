import { apiAs, apiWithRoles, type Api } from './support/api.js';
import { demoProjectWithRoles } from './support/demo-project.js';
import { ledgerProject } from './fixtures/ledger/ledger-project.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

type Row = Record<string, unknown> & { '@metadata': { resource: string; verb: string } };

const q = encodeURIComponent;
const override = { checksum: 'override' };

/** The demo, with a role that may change credit limits but not read balances. */
const limitsProject = demoProjectWithRoles([
  {
    name: 'Limit setter',
    defaultAccess: 'NONE',
    resources: { customer: { access: ['READ', 'UPDATE'], readColumns: ['name', 'credit_limit'] } },
  },
]);

describeEachTarget('old values: the demo refuses a credit limit cut by more than half while the customer owes', (target) => {
  let t: TestApp;
  let demo: Api;
  const name = 'Old Values Co';

  suiteApp(target, { project: limitsProject }, async (app) => {
    t = app;
    demo = await apiAs(t, 'demo');
    await demo.post('/customer', { name, credit_limit: 10000 }).expect(201);
    const product = await demo.post('/product', { name: 'Old Values Widget', price: 1234.5 }).expect(201);
    const productNumber = (product.body.txsummary as Array<{ product_number: number }>)[0]!.product_number;
    const order = await demo.post('/purchaseorder', { customer_name: name }).expect(201);
    const orderNumber = (order.body.txsummary as Array<{ order_number: number }>)[0]!.order_number;
    await demo.post('/lineitem', { order_number: orderNumber, product_number: productNumber, qty_ordered: 1 }).expect(201);
  });

  const limitOf = async (customer: string): Promise<number> =>
    Number(((await demo.get(`/customer/${q(customer)}`).expect(200)).body as Row[])[0]!.credit_limit);

  it('refuses the cut with the formatted message naming the old and the new limit, and changes nothing', async () => {
    const res = await demo.put(`/customer/${q(name)}`, { '@metadata': override, credit_limit: 4000 });
    expect(res.status).toBe(422);
    expect(res.body.errorCode).toBe(4220);
    expect(res.body.errorMessage).toBe(
      "Customer Old Values Co's credit limit may not be cut by more than half while they owe $1,234.50: $10,000.00 to $4,000.00",
    );
    expect(await limitOf(name)).toBe(10000);
  });

  it('accepts a cut by half, a raise, and any cut for a customer who owes nothing', async () => {
    await demo.put(`/customer/${q(name)}`, { '@metadata': override, credit_limit: 5000 }).expect(200);
    await demo.put(`/customer/${q(name)}`, { '@metadata': override, credit_limit: 10000 }).expect(200);
    await demo.post('/customer', { name: 'Owes Nothing Co', credit_limit: 10000 }).expect(201);
    await demo.put(`/customer/${q('Owes Nothing Co')}`, { '@metadata': override, credit_limit: 1 }).expect(200);
    expect(await limitOf('Owes Nothing Co')).toBe(1);
  });

  it('compares each change with the row as the transaction has it: two halvings in one request pass, each against the one before', async () => {
    const res = await demo
      .put('/customer', [
        { '@metadata': override, name, credit_limit: 6000 },
        { '@metadata': override, name, credit_limit: 3500 },
      ])
      .expect(200);
    expect((res.body.txsummary as Row[]).filter((r) => r.name === name).map((r) => Number(r.credit_limit))).toEqual([3500]);
    const again = await demo.put('/customer', [
      { '@metadata': override, name, credit_limit: 3000 },
      { '@metadata': override, name, credit_limit: 1400 },
    ]);
    expect(again.status).toBe(422);
    expect(again.body.errorMessage).toContain('$3,000.00 to $1,400.00');
    expect(await limitOf(name)).toBe(3500);
  });

  it('hides every value from a caller who may not read the balance the message names', async () => {
    const setter = await apiWithRoles(t, ['Limit setter']);
    const res = await setter.put(`/customer/${q(name)}`, { '@metadata': override, credit_limit: 1300 });
    expect(res.status).toBe(422);
    expect(res.body.errorCode).toBe(4220);
    expect(res.body.errorMessage).toBe(
      "Customer (hidden)'s credit limit may not be cut by more than half while they owe (hidden): (hidden) to (hidden)",
    );
  });
});

describeEachTarget('parent checks, old values in a formula and formatted messages (a relation without a foreign key)', (target) => {
  let t: TestApp;
  let api: Api;
  let accountId: number;

  suiteApp(target, { project: ledgerProject }, async (app) => {
    t = app;
    api = await apiAs(t, 'demo');
    const account = await api.post('/account', { name: 'Cash' }).expect(201);
    accountId = (account.body.txsummary as Array<{ account_id: number }>)[0]!.account_id;
  });

  const entryOf = (summary: Row[]) => summary.find((r) => r['@metadata'].resource === 'entry')!;
  const totalOf = async (id: number) => Number(((await api.get(`/account/${id}`).expect(200)).body as Row[])[0]!.total);

  it('accepts an entry whose account exists, and its formula sees the old amount on update (null on insert)', async () => {
    const inserted = entryOf((await api.post('/entry', { account_id: accountId, amount: 10.5 }).expect(201)).body.txsummary as Row[]);
    expect(inserted.previous_amount).toBeNull();
    const updated = await api.put(`/entry/${inserted.entry_id as number}`, { '@metadata': override, amount: 20 }).expect(200);
    expect(Number(entryOf(updated.body.txsummary as Row[]).previous_amount)).toBe(10.5);
    expect(await totalOf(accountId)).toBe(20);
  });

  it('old is the row as locked: concurrent updates of one entry each see the amount the one before them left', async () => {
    const entry = entryOf((await api.post('/entry', { account_id: accountId, amount: 100 }).expect(201)).body.txsummary as Row[]);
    const amounts = [1, 2, 3, 4, 5, 6, 7, 8];
    const answers = await Promise.all(
      amounts.map((amount) => api.put(`/entry/${entry.entry_id as number}`, { '@metadata': override, amount }).expect(200)),
    );
    // Each answer holds (old amount → new amount): read under the row's lock they chain from 100
    // through every amount once; a stale read would show two updates leaving the same amount.
    const next = new Map<number, number>();
    for (const answer of answers) {
      const written = entryOf(answer.body.txsummary as Row[]);
      next.set(Number(written.previous_amount), Number(written.amount));
    }
    const chain = [100];
    while (next.has(chain.at(-1)!)) chain.push(next.get(chain.at(-1)!)!);
    expect(chain).toHaveLength(amounts.length + 1);
    expect(chain.slice(1).sort((a, b) => a - b)).toEqual(amounts);
    expect(await totalOf(accountId)).toBe(20 + chain.at(-1)!);
    await api.delete(`/entry/${entry.entry_id as number}?checksum=override`).expect(200);
  });

  it('refuses an entry naming no account: 422 / 4220 with the formatted message, and writes nothing', async () => {
    const res = await api.post('/entry', { account_id: 987654, amount: 1234.5, booked: '2030-01-02' });
    expect(res.status).toBe(422);
    expect(res.body.errorCode).toBe(4220);
    expect(res.body.errorMessage).toBe('An entry of $1,234.50 booked 02.01.2030 names account 987654, which does not exist (entry)');
    expect((await api.get(`/entry?filter=${q('account_id = 987654')}`).expect(200)).body).toEqual([]);
  });

  it('checks a re-parented entry, not one whose account is unchanged', async () => {
    // An entry written around the rules (no foreign key stops it) may keep its dangling key.
    await t.dataSource.query('INSERT INTO entry (account_id, amount) VALUES (555555, 1)');
    const before = await totalOf(accountId);
    const orphan = ((await api.get(`/entry?filter=${q('account_id = 555555')}`).expect(200)).body as Row[])[0]!;
    await api.put(`/entry/${orphan.entry_id as number}`, { '@metadata': override, amount: 2 }).expect(200);
    await api.put(`/entry/${orphan.entry_id as number}`, { '@metadata': override, account_id: accountId }).expect(200);
    const moved = await api.put(`/entry/${orphan.entry_id as number}`, { '@metadata': override, account_id: 444444 });
    expect(moved.status).toBe(422);
    expect(moved.body.errorMessage).toBe(
      `An entry of $2.00 booked null names account 444444, which does not exist (entry/${orphan.entry_id as number})`,
    );
    expect(await totalOf(accountId)).toBe(before + 2);
  });

  it('a constraint reads old values: a booked entry keeps its amount (dates and numbers formatted)', async () => {
    const entry = entryOf(
      (await api.post('/entry', { account_id: accountId, amount: 7, booked: '2030-01-02' }).expect(201)).body.txsummary as Row[],
    );
    const res = await api.put(`/entry/${entry.entry_id as number}`, { '@metadata': override, amount: 7.25 });
    expect(res.status).toBe(422);
    expect(res.body.errorCode).toBe(4220);
    expect(res.body.errorMessage).toBe(`Entry ${entry.entry_id as number} was booked on 02.01.2030: its amount stays $7.00, not 7.250`);
    // Unbooking first, in the same request, lets the next change through: each change has the row before it.
    await api
      .put('/entry', [
        { '@metadata': override, entry_id: entry.entry_id, booked: null },
        { '@metadata': override, entry_id: entry.entry_id, amount: 7.25 },
      ])
      .expect(200);
  });

  it('tells a caller who cannot read accounts only what a foreign key would: that the account is missing, nothing hidden', async () => {
    const clerk = await apiWithRoles(t, ['Clerk']);
    await clerk.post('/entry', { account_id: accountId, amount: 1 }).expect(201);
    const res = await clerk.post('/entry', { account_id: 987654, amount: 1234.5, booked: '2030-01-02' });
    expect(res.status).toBe(422);
    expect(res.body.errorCode).toBe(4220);
    // The message names the amount, which the clerk may not read: every value in it is hidden.
    expect(res.body.errorMessage).toBe('An entry of (hidden) booked (hidden) names account (hidden), which does not exist (entry)');
    expect(JSON.stringify(res.body)).not.toContain('Cash');
  });
});
