import { Decimal } from 'decimal.js';
import type { InstanceClient } from '../support/instance-client.js';

type Row = Record<string, unknown>;

export interface PaymentOutcome {
  /** Each payment's status, in the order they were sent. */
  answers: number[];
  /** Where the result differs from what the demo's rules define (empty when exact). */
  problems: string[];
  figures: Record<string, unknown>;
}

const dec = (value: unknown): Decimal => new Decimal(String((value as string | number | null) ?? 0));

/**
 * A customer of its own with five unpaid orders, then `count` payments to it at once, spread
 * round-robin over the clients (so over the cluster's nodes), together worth four fifths of what
 * it owes. The demo's `allocate` gives each payment to the unpaid orders oldest first; payments to
 * one customer queue (its row is locked before the payment is written, and on Galera a
 * concurrent one fails certification and runs again), so whatever order they ran in, the result
 * is one: every payment wholly allocated, the orders paid in order_number order (full ones, then
 * at most one partly paid, then untouched ones), each order's amount_paid the sum of its
 * allocations, the balance what the unpaid orders still owe.
 */
export async function runConcurrentPayments(clients: InstanceClient[], count: number): Promise<PaymentOutcome> {
  const [first] = clients;
  const problems: string[] = [];
  const ok = async (what: string, answer: Promise<{ status: number; body: Row }>, status: number): Promise<Row> => {
    const res = await answer;
    if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    return res.body;
  };
  const customer = `Galera Payer ${Date.now().toString(36)}`;
  await ok('customer', first!.post('/customer', { name: customer, credit_limit: '1000000.00' }), 201);
  // Keys interleave on Galera (auto_increment_increment=3): look products up, never assume them.
  const products = ((await ok('products', first!.get('/product?pagesize=100'), 200)).rows as Row[]).filter((p) => dec(p.price).lt(100));
  const orders: number[] = [];
  for (let i = 0; i < 5; i++) {
    const placed = await ok('order', first!.post('/purchaseorder', { customer_name: customer }), 201);
    const order = (placed.txsummary as Row[]).find((r) => (r['@metadata'] as Row).resource === 'purchaseorder')!.order_number as number;
    const product = products[i % products.length]!.product_number;
    await ok('line item', first!.post('/lineitem', { order_number: order, product_number: product, qty_ordered: 2 + i }), 201);
    orders.push(order);
  }
  const read = async (): Promise<{ owed: Decimal; orders: Row[]; balance: Decimal }> => {
    const all = (await ok('orders', first!.get('/purchaseorder?pagesize=5000'), 200)).rows as Row[];
    const mine = all.filter((o) => o.customer_name === customer).sort((x, y) => Number(x.order_number) - Number(y.order_number));
    const [row] = (await ok('customer', first!.get(`/customer/${encodeURIComponent(customer)}`), 200)).rows as Row[];
    return { owed: mine.reduce((sum, o) => sum.plus(dec(o.amount_owed)), new Decimal(0)), orders: mine, balance: dec(row!.balance) };
  };
  const before = await read();
  if (!before.balance.equals(before.owed)) problems.push(`balance ${before.balance.toString()} ≠ owed ${before.owed.toString()} before`);

  // Four fifths of what is owed, in uneven parts (the last takes the rounding).
  const weights = Array.from({ length: count }, (_, i) => i + 1);
  const target = before.owed.times(4).div(5).toDecimalPlaces(2, Decimal.ROUND_DOWN);
  const amounts = weights.map((w) =>
    target
      .times(w)
      .div(weights.reduce((s, x) => s + x, 0))
      .toDecimalPlaces(2, Decimal.ROUND_DOWN),
  );
  amounts[count - 1] = target.minus(amounts.slice(0, -1).reduce((s, x) => s.plus(x), new Decimal(0)));

  const started = Date.now();
  const answers = await Promise.all(
    amounts.map((amount, i) => clients[i % clients.length]!.post('/payment', { customer_name: customer, amount: amount.toString() })),
  );
  const elapsed = Date.now() - started;

  const payments = answers
    .filter((res) => res.status === 201)
    .map((res) => (res.body.txsummary as Row[]).find((r) => (r['@metadata'] as Row).resource === 'payment')!.payment_id);
  const allPayments = new Map(
    ((await ok('payments', first!.get('/payment?pagesize=5000'), 200)).rows as Row[]).map((p) => [p.payment_id, p]),
  );
  const allocations = ((await ok('allocations', first!.get('/payment_allocation?pagesize=5000'), 200)).rows as Row[]).filter((a) =>
    payments.includes(a.payment_id),
  );
  const paid = payments.reduce<Decimal>((sum, id) => sum.plus(dec(allPayments.get(id)!.amount)), new Decimal(0));
  for (const id of payments) {
    const payment = allPayments.get(id)!;
    const allocated = allocations.filter((a) => a.payment_id === id).reduce((sum, a) => sum.plus(dec(a.amount)), new Decimal(0));
    if (
      !dec(payment.amount_allocated).equals(allocated) ||
      !allocated.equals(dec(payment.amount)) ||
      !dec(payment.amount_unallocated).isZero()
    )
      problems.push(
        `payment ${String(id)}: amount ${String(payment.amount)}, allocated ${String(payment.amount_allocated)} (sum ${allocated.toString()}), unallocated ${String(payment.amount_unallocated)}`,
      );
  }
  const after = await read();
  // Oldest first: full orders, then at most one partly paid, then untouched ones.
  let phase: 'full' | 'partial' | 'none' = 'full';
  for (const order of after.orders) {
    const sum = allocations.filter((a) => a.order_number === order.order_number).reduce((s, a) => s.plus(dec(a.amount)), new Decimal(0));
    const amountPaid = dec(order.amount_paid);
    const total = dec(order.amount_total);
    if (!amountPaid.equals(sum))
      problems.push(`order ${String(order.order_number)}: amount_paid ${amountPaid.toString()} ≠ its allocations ${sum.toString()}`);
    const state = amountPaid.equals(total) ? 'full' : amountPaid.isZero() ? 'none' : amountPaid.lt(total) ? 'partial' : 'over';
    if (state === 'over')
      problems.push(`order ${String(order.order_number)}: paid ${amountPaid.toString()} over its total ${total.toString()}`);
    if ((order.paid === true) !== (state === 'full'))
      problems.push(`order ${String(order.order_number)}: paid flag ${String(order.paid)} with ${state} payment`);
    const rank = { full: 0, partial: 1, none: 2, over: 3 };
    if (rank[state] < rank[phase] || (state === 'partial' && phase === 'partial'))
      problems.push(`order ${String(order.order_number)} is ${state} after an order that was ${phase}: not allocated oldest first`);
    if (state !== 'over') phase = state === 'partial' ? 'partial' : state === 'none' ? 'none' : phase;
  }
  const allocatedInAll = allocations.reduce((sum, a) => sum.plus(dec(a.amount)), new Decimal(0));
  if (!allocatedInAll.equals(paid)) problems.push(`allocated ${allocatedInAll.toString()} ≠ paid ${paid.toString()}`);
  const expectedBalance = before.owed.minus(paid);
  if (!after.balance.equals(expectedBalance)) problems.push(`balance ${after.balance.toString()} ≠ ${expectedBalance.toString()}`);
  const unpaidOwe = after.orders.filter((o) => o.paid !== true).reduce((sum, o) => sum.plus(dec(o.amount_owed)), new Decimal(0));
  if (!after.balance.equals(unpaidOwe))
    problems.push(`balance ${after.balance.toString()} ≠ ${unpaidOwe.toString()}, what the unpaid orders owe`);
  return {
    answers: answers.map((res) => res.status),
    problems,
    figures: {
      'payments (sent / 201)': `${count} / ${payments.length}`,
      'owed before': before.owed.toString(),
      'paid in all': paid.toString(),
      'allocated in all': allocatedInAll.toString(),
      allocations: allocations.length,
      'orders full / partial / untouched': ['full', 'partial', 'none']
        .map(
          (s) =>
            after.orders.filter((o) => {
              const p = dec(o.amount_paid);
              const t = dec(o.amount_total);
              return s === 'full' ? p.equals(t) : s === 'none' ? p.isZero() : p.gt(0) && p.lt(t);
            }).length,
        )
        .join(' / '),
      'balance before / after': `${before.balance.toString()} / ${after.balance.toString()}`,
      'payments took (ms)': elapsed,
    },
  };
}
