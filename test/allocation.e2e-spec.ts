import { suiteAppAs, type Api } from './support/api.js';
import { demoRuleViolations } from './support/demo-invariants.js';
import { describeEachTarget, type TestApp } from './support/test-app.js';

type Row = Record<string, unknown> & { '@metadata': { resource: string; verb: string } };

/** Rows of a table in a txsummary (rows the rules touched are named `main:<table>`). */
const of = (summary: Row[], table: string): Row[] => summary.filter((r) => r['@metadata'].resource.replace(/^main:/, '') === table);

/**
 * Issue 29 item 1: the demo's payments are allocated to the customer's unpaid orders, oldest
 * first (`allocate`), each allocation summed back to its order and its payment.
 */
describeEachTarget('allocation: payments to unpaid orders', (target) => {
  let t: TestApp;
  let api: Api;
  let hammer: number;

  suiteAppAs(target, 'demo', (app, client) => {
    t = app;
    api = client;
  });

  beforeAll(async () => {
    const res = await api.get(`/product?filter=${encodeURIComponent("name = 'Hammer'")}`).expect(200);
    hammer = (res.body as Array<{ product_number: number }>)[0]!.product_number; // 10.00 each
  });

  /** A customer with orders of 10 hammers each `quantities` (oldest first). */
  async function customerWithOrders(name: string, quantities: number[]): Promise<number[]> {
    await api.post('/customer', { name, credit_limit: 100000 }).expect(201);
    const orders: number[] = [];
    for (const qty of quantities) {
      const res = await api.post('/purchaseorder', { customer_name: name, paid: false }).expect(201);
      const order = of(res.body.txsummary as Row[], 'purchaseorder')[0]!.order_number as number;
      await api.post('/lineitem', { order_number: order, product_number: hammer, qty_ordered: qty }).expect(201);
      orders.push(order);
    }
    return orders;
  }

  async function balance(name: string): Promise<number> {
    return Number((await api.get(`/customer/${encodeURIComponent(name)}`).expect(200)).body[0].balance);
  }

  it('a payment of 150 on orders of 100 and 80 makes allocations of 100 and 50, pays the first and lowers the balance by 150', async () => {
    const [first, second] = await customerWithOrders('Allocated Ltd', [10, 8]);
    expect(await balance('Allocated Ltd')).toBe(180);
    const res = await api.post('/payment', { customer_name: 'Allocated Ltd', amount: 150 }).expect(201);
    const summary = res.body.txsummary as Row[];
    const allocations = of(summary, 'payment_allocation');
    expect(allocations.map((a) => [a.order_number, Number(a.amount)])).toEqual([
      [first, 100],
      [second, 50],
    ]);
    const orders = of(summary, 'purchaseorder');
    expect(orders.find((o) => o.order_number === first)).toMatchObject({ paid: true });
    expect(Number(orders.find((o) => o.order_number === first)!.amount_owed)).toBe(0);
    expect(orders.find((o) => o.order_number === second)).toMatchObject({ paid: false });
    expect(Number(orders.find((o) => o.order_number === second)!.amount_owed)).toBe(30);
    const payment = of(summary, 'payment')[0]!;
    expect([Number(payment.amount_allocated), Number(payment.amount_unallocated)]).toEqual([150, 0]);
    expect(await balance('Allocated Ltd')).toBe(30);
    expect(await demoRuleViolations(t.dataSource)).toEqual([]);

    // Deleting the payment takes its allocations with it, through the rules: the orders owe again.
    await api.delete(`/payment/${payment.payment_id as number}?checksum=override`).expect(200);
    expect(await balance('Allocated Ltd')).toBe(180);
    expect(await demoRuleViolations(t.dataSource)).toEqual([]);
  });

  it('what no order needs stays unallocated', async () => {
    await customerWithOrders('Overpaid Inc', [3]);
    const res = await api.post('/payment', { customer_name: 'Overpaid Inc', amount: 50 }).expect(201);
    const payment = of(res.body.txsummary as Row[], 'payment')[0]!;
    expect([Number(payment.amount_allocated), Number(payment.amount_unallocated)]).toEqual([30, 20]);
    expect(await balance('Overpaid Inc')).toBe(0);
  });

  it('8 concurrent payments to one customer leave exact totals', async () => {
    await customerWithOrders('Busy Payer', [5, 7, 3, 9, 4, 6]); // 340 owed
    const amounts = [15, 40, 25, 60, 35, 20, 45, 30]; // 270
    const results = await Promise.all(amounts.map((amount) => api.post('/payment', { customer_name: 'Busy Payer', amount })));
    expect(results.map((r) => r.status)).toEqual(amounts.map(() => 201));
    expect(await balance('Busy Payer')).toBe(70);
    const orders = (await api.get(`/purchaseorder?filter=${encodeURIComponent("customer_name = 'Busy Payer'")}&pagesize=50`).expect(200))
      .body as Row[];
    expect(orders.reduce((sum, o) => sum + Number(o.amount_paid), 0)).toBe(270);
    expect(await demoRuleViolations(t.dataSource)).toEqual([]);
  });
});
