/**
 * The benchmark's data set: deterministic (a seeded PRNG), generated in memory, and
 * consistent with the demo rules before a single row is written: amount = qty × price,
 * amount_total = Σ amounts of the order, balance = Σ totals of the customer's unpaid orders,
 * balance ≤ credit_limit. Money is computed in whole cents, so there is no rounding anywhere.
 */

export interface DataSpec {
  customers: number;
  products: number;
  orders: number;
  lineItems: number;
  /** Extra orders for the scaling benchmark, each with this many line items. */
  siblingOrders?: number[];
  seed?: number;
}

export const BENCH_DATA: DataSpec = { customers: 1_000, products: 100, orders: 10_000, lineItems: 50_000 };

/** The demo seed's employees (ids 1–5; sam is 1) stay; orders are spread over them. */
export const EMPLOYEE_IDS = [1, 2, 3, 4, 5];
export const SAM_EMPLOYEE_ID = 1;

/** Credit limits sit far above any balance the write workloads can build up, so no run trips the credit check. */
export const CREDIT_FLOOR_CENTS = 100_000_000_000;

export type Row = Array<string | number | boolean | null>;

export interface TableRows {
  table: string;
  columns: string[];
  rows: Iterable<Row>;
}

/** mulberry32: tiny, fast, good enough to spread keys; the same seed gives the same data everywhere. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Whole cents as the canonical decimal(19,4) text, e.g. 1234 → "12.3400". */
export function money(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}00`;
}

/** Customer names sort in key order and fit varchar(30). */
export function customerName(index: number): string {
  return `Customer ${String(index + 1).padStart(7, '0')}`;
}

export interface LineItem {
  id: number;
  order: number;
  product: number;
  qty: number;
  priceCents: number;
}

export interface Order {
  id: number;
  customer: number;
  salesrep: number | null;
  paid: boolean;
  notes: string | null;
  totalCents: number;
}

export interface DataSet {
  spec: DataSpec;
  productPrices: number[];
  orders: Order[];
  lineItems: LineItem[];
  /** Unpaid totals by customer index; customers not listed have balance 0. */
  balances: Map<number, number>;
  /** Order ids created for `siblingOrders`, in the same order. */
  siblingOrderIds: number[];
}

export function generate(spec: DataSpec): DataSet {
  const random = prng(spec.seed ?? 20251122);
  const int = (n: number): number => Math.floor(random() * n);
  const productPrices = Array.from({ length: spec.products }, () => 100 + int(19_901));
  const orders: Order[] = [];
  const lineItems: LineItem[] = [];
  const balances = new Map<number, number>();

  const addOrder = (customer: number, items: number, paid: boolean, salesrep: number | null): number => {
    const id = orders.length + 1;
    let total = 0;
    for (let k = 0; k < items; k++) {
      const product = int(spec.products);
      const qty = 1 + int(5);
      total += qty * productPrices[product]!;
      lineItems.push({ id: lineItems.length + 1, order: id, product: product + 1, qty, priceCents: productPrices[product]! });
    }
    orders.push({ id, customer, salesrep, paid, notes: id % 10 === 0 ? `Order ${id}` : null, totalCents: total });
    if (!paid) balances.set(customer, (balances.get(customer) ?? 0) + total);
    return id;
  };

  const perOrder = Math.floor(spec.lineItems / spec.orders);
  const remainder = spec.lineItems % spec.orders;
  for (let i = 0; i < spec.orders; i++) {
    const salesrep = i % 6 === 5 ? null : EMPLOYEE_IDS[i % EMPLOYEE_IDS.length]!;
    addOrder(int(spec.customers), perOrder + (i < remainder ? 1 : 0), random() < 0.3, salesrep);
  }
  // Sibling orders belong to customer 0 and stay unpaid: every insert then also moves a balance.
  const siblingOrderIds = (spec.siblingOrders ?? []).map((items) => addOrder(0, items, false, SAM_EMPLOYEE_ID));
  return { spec, productPrices, orders, lineItems, balances, siblingOrderIds };
}

/** Where the hot-parent workloads (W7, W8) write: one customer's unpaid orders, the first of them the hot order. */
export interface HotParents {
  customer: string;
  /** Unpaid, so every insert into one of them also moves the customer's balance. */
  orders: number[];
}

/** The customer with the most unpaid orders (the first such, for a tie), and those orders in id order. */
export function hotParents(data: DataSet): HotParents {
  const unpaid = new Map<number, number[]>();
  for (const order of data.orders) {
    if (!order.paid) unpaid.set(order.customer, [...(unpaid.get(order.customer) ?? []), order.id]);
  }
  let best: [number, number[]] = [0, []];
  for (const entry of unpaid) if (entry[1].length > best[1].length) best = entry;
  return { customer: customerName(best[0]), orders: best[1] };
}

function* customerRows(data: DataSet): Iterable<Row> {
  const random = prng((data.spec.seed ?? 20251122) ^ 0x5eed);
  for (let i = 0; i < data.spec.customers; i++) {
    const balance = data.balances.get(i) ?? 0;
    yield [customerName(i), money(balance), money(CREDIT_FLOOR_CENTS + Math.floor(random() * 1_000_000) * 100)];
  }
}

/** The rows to insert, parents first. */
export function tablesOf(data: DataSet): TableRows[] {
  return [
    { table: 'customer', columns: ['name', 'balance', 'credit_limit'], rows: customerRows(data) },
    {
      table: 'product',
      columns: ['product_number', 'name', 'price'],
      rows: data.productPrices.map((cents, i) => [i + 1, `Product ${String(i + 1).padStart(3, '0')}`, money(cents)]),
    },
    {
      table: 'purchaseorder',
      columns: ['order_number', 'customer_name', 'salesrep_id', 'amount_total', 'paid', 'notes'],
      rows: data.orders.map((o) => [o.id, customerName(o.customer), o.salesrep, money(o.totalCents), o.paid, o.notes]),
    },
    {
      table: 'lineitem',
      columns: ['lineitem_id', 'order_number', 'product_number', 'qty_ordered', 'product_price', 'amount'],
      rows: data.lineItems.map((l) => [l.id, l.order, l.product, l.qty, money(l.priceCents), money(l.qty * l.priceCents)]),
    },
  ];
}

/** Every demo rule, checked on the generated data; returns the violations (none expected). */
export function ruleViolations(data: DataSet): string[] {
  const problems: string[] = [];
  const totals = new Map<number, number>();
  for (const item of data.lineItems) {
    if (item.priceCents !== data.productPrices[item.product - 1]) problems.push(`line item ${item.id}: price is not its product's`);
    totals.set(item.order, (totals.get(item.order) ?? 0) + item.qty * item.priceCents);
  }
  const unpaid = new Map<number, number>();
  for (const order of data.orders) {
    if ((totals.get(order.id) ?? 0) !== order.totalCents) problems.push(`order ${order.id}: amount_total is not the sum of its amounts`);
    if (!order.paid) unpaid.set(order.customer, (unpaid.get(order.customer) ?? 0) + order.totalCents);
  }
  for (const [customer, balance] of data.balances) {
    if (unpaid.get(customer) !== balance) problems.push(`customer ${customer}: balance is not the sum of unpaid totals`);
    if (balance > CREDIT_FLOOR_CENTS) problems.push(`customer ${customer}: balance exceeds every credit limit`);
  }
  for (const [customer] of unpaid) if (!data.balances.has(customer)) problems.push(`customer ${customer}: balance missing`);
  return problems;
}
