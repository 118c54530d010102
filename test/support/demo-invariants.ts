import { Decimal } from 'decimal.js';
import type { DataSource } from 'typeorm';

/**
 * Recomputes every demo aggregate from scratch and returns the rows where a stored value
 * disagrees (empty when all rules hold).
 */
export async function demoRuleViolations(dataSource: DataSource): Promise<string[]> {
  const customers = (await dataSource.query('SELECT name, balance, credit_limit FROM customer')) as Array<Record<string, unknown>>;
  const orders = (await dataSource.query('SELECT order_number, customer_name, amount_total, paid FROM purchaseorder')) as Array<
    Record<string, unknown>
  >;
  const items = (await dataSource.query('SELECT lineitem_id, order_number, qty_ordered, product_price, amount FROM lineitem')) as Array<
    Record<string, unknown>
  >;
  const problems: string[] = [];
  const d = (v: unknown): Decimal => new Decimal(v === null || v === undefined ? 0 : String(v));
  const paid = (v: unknown): boolean => v === true || v === 1 || v === '1';

  const totals = new Map<string, Decimal>();
  for (const item of items) {
    const expected = d(item.product_price).times(Number(item.qty_ordered));
    if (!d(item.amount).equals(expected)) problems.push(`lineitem ${item.lineitem_id}: amount ${item.amount} ≠ ${expected}`);
    const key = String(item.order_number);
    totals.set(key, (totals.get(key) ?? new Decimal(0)).plus(d(item.amount)));
  }
  const balances = new Map<string, Decimal>();
  for (const order of orders) {
    const expected = totals.get(String(order.order_number)) ?? new Decimal(0);
    if (!d(order.amount_total).equals(expected))
      problems.push(`purchaseorder ${order.order_number}: amount_total ${order.amount_total} ≠ ${expected}`);
    if (!paid(order.paid)) {
      const key = String(order.customer_name);
      balances.set(key, (balances.get(key) ?? new Decimal(0)).plus(d(order.amount_total)));
    }
  }
  for (const customer of customers) {
    const expected = balances.get(String(customer.name)) ?? new Decimal(0);
    if (!d(customer.balance).equals(expected)) problems.push(`customer ${customer.name}: balance ${customer.balance} ≠ ${expected}`);
    if (d(customer.balance).gt(d(customer.credit_limit))) problems.push(`customer ${customer.name}: balance over credit limit`);
  }
  return problems;
}
