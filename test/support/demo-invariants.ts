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
 * exact decimals, and compares each with the value stored; also checks the credit limit.
 */
export async function demoRuleReport(dataSource: DataSource): Promise<DemoRuleReport> {
  const customers = await dataSource.query<CustomerRow[]>('SELECT name, balance, credit_limit FROM customer');
  const orders = await dataSource.query<OrderRow[]>('SELECT order_number, customer_name, amount_total, paid FROM purchaseorder');
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
  const balances = new Map<string, Decimal>();
  for (const order of orders) {
    const expected = totals.get(String(order.order_number)) ?? new Decimal(0);
    if (!d(order.amount_total).equals(expected))
      problems.push(`purchaseorder ${order.order_number}: amount_total ${String(order.amount_total)} ≠ ${expected.toString()}`);
    if (!paid(order.paid)) {
      const key = order.customer_name;
      balances.set(key, (balances.get(key) ?? new Decimal(0)).plus(d(order.amount_total)));
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
