import { describe, expect, it } from '@jest/globals';
import { customerName, generate, hotParents, money, ruleViolations, tablesOf } from './dataset.js';

const SMALL = { customers: 50, products: 7, orders: 200, lineItems: 1_003, siblingOrders: [10, 300] };

describe('benchmark data set', () => {
  it('satisfies every demo rule as generated', () => {
    expect(ruleViolations(generate(SMALL))).toEqual([]);
  });

  it('is the same on every run', () => {
    const rows = (): unknown => tablesOf(generate(SMALL)).map((t) => [...t.rows]);
    expect(rows()).toEqual(rows());
  });

  it('has the requested sizes, sibling orders included', () => {
    const data = generate(SMALL);
    expect(data.orders).toHaveLength(202);
    expect(data.lineItems).toHaveLength(1_003 + 10 + 300);
    expect(data.siblingOrderIds.map((id) => data.lineItems.filter((l) => l.order === id).length)).toEqual([10, 300]);
    expect([...tablesOf(data)[0]!.rows]).toHaveLength(50);
  });

  it('writes money as decimal(19,4) text and names customers in key order', () => {
    expect(money(123456)).toBe('1234.5600');
    expect(money(5)).toBe('0.0500');
    expect(customerName(0) < customerName(999_999)).toBe(true);
    expect(customerName(999_999).length).toBeLessThanOrEqual(30);
  });

  it('notices a broken aggregate', () => {
    const data = generate(SMALL);
    data.orders[3]!.totalCents += 1;
    expect(ruleViolations(data).join('\n')).toMatch(/order 4: amount_total/);
  });

  it('finds the customer with the most unpaid orders for the hot-parent workloads', () => {
    const data = generate(SMALL);
    const hot = hotParents(data);
    const unpaid = (name: string): number[] => data.orders.filter((o) => !o.paid && customerName(o.customer) === name).map((o) => o.id);
    expect(hot.orders).toEqual(unpaid(hot.customer));
    for (let c = 0; c < SMALL.customers; c++) expect(unpaid(customerName(c)).length).toBeLessThanOrEqual(hot.orders.length);
    expect(hot.orders.length).toBeGreaterThan(1);
  });
});
