import { Decimal } from 'decimal.js';
import type { DataSource } from 'typeorm';

/** A DECIMAL as the drivers hand it back: a number from SQLite, text from MySQL and PostgreSQL. */
type DecimalValue = number | string | null;

interface CustomerRow {
  name: string;
  balance: DecimalValue;
  credit_limit: DecimalValue;
}

interface OrderRow {
  order_number: number;
  customer_name: string;
  amount_total: DecimalValue;
  amount_paid: DecimalValue;
  amount_owed: DecimalValue;
  /** A boolean from PostgreSQL, 1 or 0 from SQLite and MySQL; the text '1' counts as true too. */
  paid: boolean | number | string;
}

interface LineItemRow {
  lineitem_id: number;
  order_number: number;
  qty_ordered: number;
  product_price: DecimalValue;
  amount: DecimalValue;
}

interface PaymentRow {
  payment_id: number;
  amount: DecimalValue;
  amount_allocated: DecimalValue;
  amount_unallocated: DecimalValue;
}

interface AllocationRow {
  payment_id: number;
  order_number: number;
  amount: DecimalValue;
}

/** What `demoRuleReport` compared: how many derived values of each kind, and the rows where one disagrees. */
export interface DemoRuleReport {
  /** Line items' `amount` (qty × price), orders' `amount_total`, customers' `balance`. */
  checked: { amounts: number; orderTotals: number; balances: number };
  violations: string[];
}

/**
 * Recomputes every demo aggregate from scratch and returns the rows where a stored value
 * disagrees (empty when all rules hold).
 */
export async function demoRuleViolations(dataSource: DataSource): Promise<string[]> {
  return (await demoRuleReport(dataSource)).violations;
}

/**
 * Reads the base rows by SQL, recomputes every derived value of the demo's rules from them in
 * exact decimals, and compares each with the value stored; also checks the credit limit and that
 * no payment is allocated beyond its amount.
 */
export async function demoRuleReport(dataSource: DataSource): Promise<DemoRuleReport> {
  const customers = await dataSource.query<CustomerRow[]>('SELECT name, balance, credit_limit FROM customer');
  const orders = await dataSource.query<OrderRow[]>(
    'SELECT order_number, customer_name, amount_total, amount_paid, amount_owed, paid FROM purchaseorder',
  );
  const payments = await dataSource.query<PaymentRow[]>('SELECT payment_id, amount, amount_allocated, amount_unallocated FROM payment');
  const allocations = await dataSource.query<AllocationRow[]>('SELECT payment_id, order_number, amount FROM payment_allocation');
  const items = await dataSource.query<LineItemRow[]>('SELECT lineitem_id, order_number, qty_ordered, product_price, amount FROM lineitem');
  const problems: string[] = [];
  const d = (v: DecimalValue): Decimal => new Decimal(String(v ?? 0));
  const paid = (v: OrderRow['paid']): boolean => v === true || v === 1 || v === '1';

  const totals = new Map<string, Decimal>();
  for (const item of items) {
    const expected = d(item.product_price).times(item.qty_ordered);
    if (!d(item.amount).equals(expected))
      problems.push(`lineitem ${item.lineitem_id}: amount ${String(item.amount)} ≠ ${expected.toString()}`);
    const key = String(item.order_number);
    totals.set(key, (totals.get(key) ?? new Decimal(0)).plus(d(item.amount)));
  }
  const paidToOrder = new Map<string, Decimal>();
  const allocatedFromPayment = new Map<string, Decimal>();
  for (const allocation of allocations) {
    const add = (map: Map<string, Decimal>, key: string): void =>
      void map.set(key, (map.get(key) ?? new Decimal(0)).plus(d(allocation.amount)));
    add(paidToOrder, String(allocation.order_number));
    add(allocatedFromPayment, String(allocation.payment_id));
    if (!d(allocation.amount).gt(0))
      problems.push(`payment_allocation of payment ${allocation.payment_id}: amount ${String(allocation.amount)} is not positive`);
  }
  for (const payment of payments) {
    const expected = allocatedFromPayment.get(String(payment.payment_id)) ?? new Decimal(0);
    if (!d(payment.amount_allocated).equals(expected))
      problems.push(`payment ${payment.payment_id}: amount_allocated ${String(payment.amount_allocated)} ≠ ${expected.toString()}`);
    const unallocated = d(payment.amount).minus(d(payment.amount_allocated));
    if (!d(payment.amount_unallocated).equals(unallocated))
      problems.push(`payment ${payment.payment_id}: amount_unallocated ${String(payment.amount_unallocated)} ≠ ${unallocated.toString()}`);
    if (unallocated.isNegative()) problems.push(`payment ${payment.payment_id}: allocated more than its amount`);
  }
  const balances = new Map<string, Decimal>();
  for (const order of orders) {
    const expected = totals.get(String(order.order_number)) ?? new Decimal(0);
    if (!d(order.amount_total).equals(expected))
      problems.push(`purchaseorder ${order.order_number}: amount_total ${String(order.amount_total)} ≠ ${expected.toString()}`);
    const paidExpected = paidToOrder.get(String(order.order_number)) ?? new Decimal(0);
    if (!d(order.amount_paid).equals(paidExpected))
      problems.push(`purchaseorder ${order.order_number}: amount_paid ${String(order.amount_paid)} ≠ ${paidExpected.toString()}`);
    const owed = d(order.amount_total).minus(d(order.amount_paid));
    if (!d(order.amount_owed).equals(owed))
      problems.push(`purchaseorder ${order.order_number}: amount_owed ${String(order.amount_owed)} ≠ ${owed.toString()}`);
    if (!paid(order.paid)) {
      const key = order.customer_name;
      balances.set(key, (balances.get(key) ?? new Decimal(0)).plus(d(order.amount_owed)));
    }
  }
  for (const customer of customers) {
    const expected = balances.get(customer.name) ?? new Decimal(0);
    if (!d(customer.balance).equals(expected))
      problems.push(`customer ${customer.name}: balance ${String(customer.balance)} ≠ ${expected.toString()}`);
    if (d(customer.balance).gt(d(customer.credit_limit))) problems.push(`customer ${customer.name}: balance over credit limit`);
  }
  return { checked: { amounts: items.length, orderTotals: orders.length, balances: customers.length }, violations: problems };
}
