import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { demoCustomers } from '../src/demo/seed/demo-data.js';
import { suiteAppAs, type Api } from './support/api.js';
import { demoRuleViolations } from './support/demo-invariants.js';
import { ledgerProject } from './fixtures/ledger/ledger-project.js';
import { shelvesProject } from './fixtures/shelves/shelves-project.js';
import { describeEachTarget, type TestApp } from './support/test-app.js';

/** One random step; indexes pick among the rows that exist when the step runs. */
type Step =
  | { op: 'newOrder'; customer: number; paid: boolean }
  | { op: 'newItem'; order: number; product: number; qty: number }
  | { op: 'qty'; item: number; qty: number }
  | { op: 'product'; item: number; product: number }
  | { op: 'moveItem'; item: number; order: number }
  | { op: 'pay'; order: number; paid: boolean }
  | { op: 'reparent'; order: number; customer: number }
  | { op: 'deleteItem'; item: number }
  | { op: 'deleteOrder'; order: number }
  | { op: 'limit'; customer: number; percent: number }
  | { op: 'payment'; customer: number; cents: number }
  | { op: 'deletePayment'; payment: number };

const index = fc.nat({ max: 1000 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('newOrder' as const), customer: index, paid: fc.boolean() }),
  fc.record({
    op: fc.constant('newItem' as const),
    order: index,
    product: fc.integer({ min: 1, max: 10 }),
    qty: fc.integer({ min: 1, max: 5 }),
  }),
  fc.record({
    op: fc.constant('newItem' as const),
    order: index,
    product: fc.integer({ min: 1, max: 10 }),
    qty: fc.integer({ min: 1, max: 5 }),
  }),
  fc.record({ op: fc.constant('qty' as const), item: index, qty: fc.integer({ min: 1, max: 9 }) }),
  fc.record({ op: fc.constant('product' as const), item: index, product: fc.integer({ min: 1, max: 10 }) }),
  fc.record({ op: fc.constant('moveItem' as const), item: index, order: index }),
  fc.record({ op: fc.constant('pay' as const), order: index, paid: fc.boolean() }),
  fc.record({ op: fc.constant('reparent' as const), order: index, customer: index }),
  fc.record({ op: fc.constant('deleteItem' as const), item: index }),
  fc.record({ op: fc.constant('deleteOrder' as const), order: index }),
  fc.record({ op: fc.constant('limit' as const), customer: index, percent: fc.integer({ min: 30, max: 160 }) }),
  fc.record({ op: fc.constant('payment' as const), customer: index, cents: fc.integer({ min: 1, max: 300_000 }) }),
  fc.record({ op: fc.constant('payment' as const), customer: index, cents: fc.integer({ min: 1, max: 3_000 }) }),
  fc.record({ op: fc.constant('deletePayment' as const), payment: index }),
);

type Json = Record<string, unknown>;
const dec = (value: unknown): Decimal => new Decimal(String((value as string | number | null) ?? 0));

describeEachTarget('logic engine: random sequences keep every aggregate right', (target) => {
  let t: TestApp;
  let api: Api;

  suiteAppAs(target, 'demo', (app, client) => {
    t = app;
    api = client;
  });

  async function ids(resource: string, key: string): Promise<number[]> {
    const res = await api.get(`/${resource}?pagesize=5000`).expect(200);
    return (res.body as Array<Record<string, number>>).filter((r) => key in r).map((r) => r[key]!);
  }

  async function run(s: Step): Promise<number> {
    const pick = <T>(list: T[], i: number): T | undefined => (list.length === 0 ? undefined : list[i % list.length]);
    const customer = (i: number): string => demoCustomers[i % demoCustomers.length]!.name;
    const orders = await ids('purchaseorder', 'order_number');
    const items = await ids('lineitem', 'lineitem_id');
    const override = { '@metadata': { checksum: 'override' } };
    switch (s.op) {
      case 'newOrder':
        return (await api.post('/purchaseorder', { customer_name: customer(s.customer), paid: s.paid })).status;
      case 'newItem': {
        const order = pick(orders, s.order);
        if (order === undefined) return 0;
        return (await api.post('/lineitem', { order_number: order, product_number: s.product, qty_ordered: s.qty })).status;
      }
      case 'qty':
      case 'product':
      case 'moveItem': {
        const item = pick(items, s.item);
        if (item === undefined) return 0;
        const body =
          s.op === 'qty'
            ? { qty_ordered: s.qty }
            : s.op === 'product'
              ? { product_number: s.product }
              : { order_number: pick(orders, s.order) };
        return (await api.put(`/lineitem/${item}`, { ...override, ...body })).status;
      }
      case 'pay':
      case 'reparent': {
        const order = pick(orders, s.order);
        if (order === undefined) return 0;
        const body = s.op === 'pay' ? { paid: s.paid } : { customer_name: customer(s.customer) };
        return (await api.put(`/purchaseorder/${order}`, { ...override, ...body })).status;
      }
      case 'deleteItem': {
        const item = pick(items, s.item);
        return item === undefined ? 0 : (await api.delete(`/lineitem/${item}?checksum=override`)).status;
      }
      case 'deleteOrder': {
        const order = pick(orders, s.order);
        return order === undefined ? 0 : (await api.delete(`/purchaseorder/${order}?checksum=override`)).status;
      }
      case 'limit':
        return changeLimit(customer(s.customer), s.percent);
      case 'payment':
        return payment(customer(s.customer), new Decimal(s.cents).div(100));
      case 'deletePayment': {
        const payment = pick(await ids('payment', 'payment_id'), s.payment);
        return payment === undefined ? 0 : deletePayment(payment);
      }
    }
  }

  const rows = async (resource: string): Promise<Json[]> =>
    ((await api.get(`/${resource}?pagesize=5000`).expect(200)).body as Json[]).filter((r) => r['@metadata'] !== undefined);
  const byKey = (list: Json[], key: string): Map<unknown, Json> => new Map(list.map((r) => [r[key], r]));

  /**
   * Pays `amount` to a customer, and checks the allocation exactly against a model of the demo's
   * `allocate`: the customer's unpaid orders in order_number order, each given what it owes
   * (never more than is left, never a share of nothing), until the payment is used up; each
   * order's amount_paid grows by its share, the balance falls by what was allocated.
   */
  async function payment(name: string, amount: Decimal): Promise<number> {
    const orders = (await rows('purchaseorder')).filter((o) => o.customer_name === name);
    const [customerBefore] = (await api.get(`/customer/${encodeURIComponent(name)}`).expect(200)).body as Json[];
    const expected = new Map<unknown, Decimal>();
    let available = amount;
    for (const order of orders.filter((o) => o.paid === false).sort((a, b) => Number(a.order_number) - Number(b.order_number))) {
      if (!available.gt(0)) break;
      const share = Decimal.min(available, dec(order.amount_owed));
      if (!share.gt(0)) continue;
      expected.set(order.order_number, share);
      available = available.minus(share);
    }
    const res = await api.post('/payment', { customer_name: name, amount: amount.toString() });
    expect(res.status).toBe(201);
    const paymentId = (res.body.txsummary as Json[]).find((r) => (r['@metadata'] as Json).resource === 'payment')!.payment_id;
    const [stored] = (await api.get(`/payment/${String(paymentId)}`).expect(200)).body as Json[];
    expect([dec(stored!.amount_allocated).toString(), dec(stored!.amount_unallocated).toString()]).toEqual([
      amount.minus(available).toString(),
      available.toString(),
    ]);
    const allocations = (await rows('payment_allocation')).filter((a) => a.payment_id === paymentId);
    expect(new Map(allocations.map((a) => [a.order_number, dec(a.amount).toString()]))).toEqual(
      new Map([...expected].map(([order, share]) => [order, share.toString()])),
    );
    const after = byKey(await rows('purchaseorder'), 'order_number');
    for (const order of orders) {
      const share = expected.get(order.order_number) ?? new Decimal(0);
      expect([order.order_number, dec(after.get(order.order_number)!.amount_paid).toString()]).toEqual([
        order.order_number,
        dec(order.amount_paid).plus(share).toString(),
      ]);
    }
    const [customerAfter] = (await api.get(`/customer/${encodeURIComponent(name)}`).expect(200)).body as Json[];
    expect(dec(customerAfter!.balance).toString()).toBe(dec(customerBefore!.balance).minus(amount.minus(available)).toString());
    return res.status;
  }

  /** Deletes a payment: its allocations go with it (cascade), and each order's amount_paid falls by its share, exactly. */
  async function deletePayment(paymentId: number): Promise<number> {
    const shares = (await rows('payment_allocation')).filter((a) => a.payment_id === paymentId);
    const before = byKey(await rows('purchaseorder'), 'order_number');
    const res = await api.delete(`/payment/${paymentId}?checksum=override`);
    expect(res.status).toBe(200);
    const after = byKey(await rows('purchaseorder'), 'order_number');
    for (const share of shares) {
      const order = share.order_number;
      expect([order, dec(after.get(order)!.amount_paid).toString()]).toEqual([
        order,
        dec(before.get(order)!.amount_paid).minus(dec(share.amount)).toString(),
      ]);
    }
    expect((await rows('payment_allocation')).filter((a) => a.payment_id === paymentId)).toEqual([]);
    return res.status;
  }

  /**
   * Sets a customer's credit limit to `percent` of what it is, and checks the answer against the
   * model of the demo's two customer constraints: the balance may not exceed the limit, and a
   * customer who owes may not lose more than half of it at once (the rule with `old`).
   */
  async function changeLimit(name: string, percent: number): Promise<number> {
    const path = `/customer/${encodeURIComponent(name)}`;
    const read = async () => ((await api.get(path).expect(200)).body as Array<Record<string, number>>)[0]!;
    const before = await read();
    const balance = new Decimal(String(before.balance));
    const old = new Decimal(String(before.credit_limit));
    const limit = old.times(percent).div(100).toDecimalPlaces(2);
    const overBalance = balance.gt(limit);
    const cutTooFar = !balance.isZero() && limit.lt(old.div(2));
    const res = await api.put(path, { '@metadata': { checksum: 'override' }, credit_limit: limit.toString() });
    expect({ percent, status: res.status }).toEqual({ percent, status: overBalance || cutTooFar ? 422 : 200 });
    if (res.status === 422 && !overBalance) expect(res.body.errorMessage).toContain('may not be cut by more than half');
    expect(new Decimal(String((await read()).credit_limit)).equals(res.status === 200 ? limit : old)).toBe(true);
    return res.status;
  }

  it('after any sequence of inserts, updates, re-parentings, deletes and payments, every aggregate equals its recomputation', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 25 }), async (steps) => {
        for (const s of steps) {
          const status = await run(s);
          // 422: a credit limit (or a cut of one) refused the change (and rolled it back); 0: nothing to act on.
          expect([0, 200, 201, 422]).toContain(status);
        }
        expect(await demoRuleViolations(t.dataSource)).toEqual([]);
      }),
      { numRuns: 6 },
    );
  });
});

/** Managed parents: boxes name shelves that may not exist yet (`insertParent` on the shelf's count and sum). */
type ShelfStep =
  | { op: 'box'; shelf: number; qty: number }
  | { op: 'qty'; box: number; qty: number }
  | { op: 'move'; box: number; shelf: number }
  | { op: 'deleteBox'; box: number }
  | { op: 'deleteShelf'; shelf: number };

const SHELVES = ['S0', 'S1', 'S2', 'S3', 'S4', 'S5'];
const shelfIndex = fc.nat({ max: SHELVES.length - 1 });
const shelfStep: fc.Arbitrary<ShelfStep> = fc.oneof(
  fc.record({ op: fc.constant('box' as const), shelf: shelfIndex, qty: fc.integer({ min: 1, max: 9 }) }),
  fc.record({ op: fc.constant('box' as const), shelf: shelfIndex, qty: fc.integer({ min: 1, max: 9 }) }),
  fc.record({ op: fc.constant('qty' as const), box: index, qty: fc.integer({ min: 1, max: 9 }) }),
  fc.record({ op: fc.constant('move' as const), box: index, shelf: shelfIndex }),
  fc.record({ op: fc.constant('deleteBox' as const), box: index }),
  fc.record({ op: fc.constant('deleteShelf' as const), shelf: shelfIndex }),
);

describeEachTarget('logic engine: random sequences on managed parents keep their counts and sums', (target) => {
  let api: Api;

  suiteAppAs(target, 'demo', (_app, client) => void (api = client), { project: shelvesProject });

  const list = async (resource: string): Promise<Json[]> =>
    ((await api.get(`/${resource}?pagesize=5000`).expect(200)).body as Json[]).filter((r) => r['@metadata'] !== undefined);

  it('every box has its shelf, inserted by the first box to name it, and each shelf counts and sums its boxes exactly', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(shelfStep, { minLength: 5, maxLength: 25 }), async (steps) => {
        for (const s of steps) {
          const boxes = await list('box');
          const box = boxes.length === 0 ? undefined : boxes[('box' in s ? s.box : 0) % boxes.length];
          const shelf = 'shelf' in s ? SHELVES[s.shelf]! : '';
          const override = { '@metadata': { checksum: 'override' } };
          if (s.op === 'box') await api.post('/box', { shelf_code: shelf, qty: s.qty }).expect(201);
          else if (s.op === 'deleteShelf') {
            const exists = (await api.get(`/shelf/${shelf}`).expect(200)).body as Json[];
            await api.delete(`/shelf/${shelf}?checksum=override`).expect(exists.length === 0 ? 404 : 200);
          } else if (!box) continue;
          else if (s.op === 'qty') await api.put(`/box/${String(box.box_id)}`, { ...override, qty: s.qty }).expect(200);
          else if (s.op === 'move') await api.put(`/box/${String(box.box_id)}`, { ...override, shelf_code: shelf }).expect(200);
          else await api.delete(`/box/${String(box.box_id)}?checksum=override`).expect(200);
        }
        const boxes = await list('box');
        const shelves = new Map((await list('shelf')).map((r) => [r.code, r]));
        for (const box of boxes) expect(shelves.has(box.shelf_code)).toBe(true);
        for (const [code, row] of shelves) {
          const mine = boxes.filter((b) => b.shelf_code === code);
          expect({ code, box_count: row.box_count, total_qty: row.total_qty }).toEqual({
            code,
            box_count: mine.length,
            total_qty: mine.reduce((sum, b) => sum + Number(b.qty), 0),
          });
        }
      }),
      { numRuns: 6 },
    );
  });
});

/** Parent checks (an entry's account has no foreign key) and old values (a formula and a constraint reading `old`). */
type LedgerStep =
  | { op: 'account' }
  | { op: 'entry'; account: number; missing: boolean; cents: number; booked: boolean }
  | { op: 'amount'; entry: number; cents: number }
  | { op: 'move'; entry: number; account: number; missing: boolean }
  | { op: 'deleteAccount'; account: number };

const cents = fc.integer({ min: -50_000, max: 50_000 });
const ledgerStep: fc.Arbitrary<LedgerStep> = fc.oneof(
  fc.record({ op: fc.constant('account' as const) }),
  fc.record({ op: fc.constant('entry' as const), account: index, missing: fc.boolean(), cents, booked: fc.boolean() }),
  fc.record({ op: fc.constant('entry' as const), account: index, missing: fc.constant(false), cents, booked: fc.constant(false) }),
  fc.record({ op: fc.constant('amount' as const), entry: index, cents }),
  fc.record({ op: fc.constant('amount' as const), entry: index, cents }),
  fc.record({ op: fc.constant('move' as const), entry: index, account: index, missing: fc.boolean() }),
  fc.record({ op: fc.constant('deleteAccount' as const), account: index }),
);

describeEachTarget('logic engine: random sequences with parent checks and old values', (target) => {
  let api: Api;
  const MISSING = 987_000;

  suiteAppAs(target, 'demo', (_app, client) => void (api = client), { project: ledgerProject });

  const list = async (resource: string): Promise<Json[]> =>
    ((await api.get(`/${resource}?pagesize=5000`).expect(200)).body as Json[]).filter((r) => r['@metadata'] !== undefined);
  const entryOf = (res: { body: Json }): Json => (res.body.txsummary as Json[]).find((r) => (r['@metadata'] as Json).resource === 'entry')!;

  it('refuses exactly the entries naming no account and the amount changes of booked entries; old values and totals stay exact', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(ledgerStep, { minLength: 5, maxLength: 25 }), async (steps) => {
        for (const s of steps) {
          const accounts = await list('account');
          const entries = await list('entry');
          const account = (i: number, missing: boolean): number | undefined =>
            missing ? MISSING + i : accounts.length === 0 ? undefined : (accounts[i % accounts.length]!.account_id as number);
          const amount = 'cents' in s ? new Decimal(s.cents).div(100) : new Decimal(0);
          const override = { '@metadata': { checksum: 'override' } };
          if (s.op === 'account') await api.post('/account', { name: 'property' }).expect(201);
          else if (s.op === 'entry') {
            const id = account(s.account, s.missing);
            if (id === undefined) continue;
            const booked = s.booked ? '2030-01-02' : null;
            const res = await api.post('/entry', { account_id: id, amount: amount.toString(), booked });
            expect(res.status).toBe(s.missing ? 422 : 201);
            if (!s.missing) expect(entryOf(res).previous_amount).toBeNull();
          } else if (s.op === 'deleteAccount') {
            const id = account(s.account, false);
            if (id !== undefined) await api.delete(`/account/${id}?checksum=override`).expect(200);
          } else {
            const entry = entries.length === 0 ? undefined : entries[s.entry % entries.length];
            if (!entry) continue;
            const path = `/entry/${String(entry.entry_id)}`;
            if (s.op === 'amount') {
              const changes = !dec(entry.amount).equals(amount);
              const res = await api.put(path, { ...override, amount: amount.toString() });
              // A booked entry's amount stays as it was (the constraint reads `old`); the formula keeps the amount before the change.
              expect(res.status).toBe(entry.booked !== null && changes ? 422 : 200);
              if (res.status === 200 && changes) expect(dec(entryOf(res).previous_amount).equals(dec(entry.amount))).toBe(true);
            } else {
              const id = account(s.account, s.missing);
              if (id === undefined) continue;
              const res = await api.put(path, { ...override, account_id: id });
              expect(res.status).toBe(s.missing && id !== entry.account_id ? 422 : 200);
            }
          }
        }
        const entries = await list('entry');
        for (const account of await list('account')) {
          const total = entries
            .filter((e) => e.account_id === account.account_id)
            .reduce((sum, e) => sum.plus(dec(e.amount)), new Decimal(0));
          expect({ account: account.account_id, total: dec(account.total).toString() }).toEqual({
            account: account.account_id,
            total: total.toString(),
          });
        }
      }),
      { numRuns: 6 },
    );
  });
});
