import { describe, expect, it } from '@jest/globals';
import { ruleWritesDifference } from './preflight.js';

type Entry = Record<string, unknown> & { '@metadata': { resource: string; verb: string } };

const entry = (resource: string, verb: string, values: Record<string, unknown>): Entry => ({
  '@metadata': { resource, verb },
  ...values,
});

/** Tessera's summary for a line item of amount 25 into order 7, and raw-rules' for the same line item right after. */
function summaries(amount = 25) {
  const tessera = {
    txsummary: [
      entry('lineitem', 'INSERT', { lineitem_id: 1, amount }),
      entry('main:purchaseorder', 'UPDATE', { order_number: 7, amount_total: 125, amount_owed: 125 }),
      entry('main:customer', 'UPDATE', { name: 'Alpha', balance: 300.5 }),
      entry('main:purchaseorder_audit', 'INSERT', { audit_number: 1, amount_total: 100 }),
    ],
  };
  const rawRules = {
    txsummary: [
      entry('lineitem', 'INSERT', { lineitem_id: 2, amount }),
      entry('main:purchaseorder', 'UPDATE', { order_number: 7, amount_total: 125 + amount, amount_owed: 125 + amount }),
      entry('main:customer', 'UPDATE', { name: 'Alpha', balance: 300.5 + amount }),
      entry('main:purchaseorder_audit', 'INSERT', { audit_number: 2, amount_total: 125 }),
    ],
  };
  return { tessera, rawRules };
}

describe("raw-rules' check against Tessera's rule writes", () => {
  it('finds nothing when raw-rules writes the same rows with every total moved on by the amount', () => {
    const { tessera, rawRules } = summaries();
    expect(ruleWritesDifference(tessera, rawRules)).toBeUndefined();
  });

  it('names a row raw-rules leaves out, or a column it lacks', () => {
    const { tessera, rawRules } = summaries();
    const noCustomer = { txsummary: rawRules.txsummary.filter((e) => e['@metadata'].resource !== 'main:customer') };
    expect(ruleWritesDifference(tessera, noCustomer)).toMatch(
      /rows written differ[\s\S]*raw-rules: INSERT lineitem.*UPDATE main:purchaseorder.*INSERT main:purchaseorder_audit/,
    );
    const [first, ...rest] = rawRules.txsummary;
    const { amount: _, ...noAmount } = first!;
    expect(ruleWritesDifference(tessera, { txsummary: [noAmount, ...rest] })).toMatch(/rows written differ/);
  });

  it('names a total that did not move by the amount, and an audit row that does not hold the order before', () => {
    const { tessera, rawRules } = summaries();
    const rows = structuredClone(rawRules.txsummary);
    rows[2]!.balance = 300.5;
    rows[3]!.amount_total = 150;
    expect(ruleWritesDifference(tessera, { txsummary: rows })).toBe(
      "main:customer.balance is 300.5000, not 300.5000 + 25.0000; the audit row does not hold the order's total before the insert",
    );
  });

  it('is a difference when either answer has no summary at all (an error answer, say)', () => {
    const { tessera } = summaries();
    expect(ruleWritesDifference(tessera, { errorCode: 4220 })).toMatch(/rows written differ/);
  });
});
