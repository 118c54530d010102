import { ABSENT, CUSTOMER_PRESENT, customerKey, DocumentLedger, orderKey, orderState } from './document-ledger.js';

/** The chaos test's judge, judged: a verdict that could not fail would prove nothing. */
describe('DocumentLedger', () => {
  const one = orderState({ customer: 'Pool A', paid: false, items: [{ product: 1, qty: 2 }] });
  const two = orderState({
    customer: 'Pool A',
    paid: false,
    items: [
      { product: 1, qty: 3 },
      { product: 2, qty: 1 },
    ],
  });
  const half = orderState({ customer: 'Pool A', paid: false, items: [{ product: 1, qty: 3 }] });

  it('finds acknowledged writes stored, and counts what got no answer as present or absent', () => {
    const ledger = new DocumentLedger();
    ledger.record('POST a', [{ key: orderKey('a'), before: ABSENT, after: one }], 'acknowledged');
    ledger.record('PUT a', [{ key: orderKey('a'), before: one, after: two }], 'acknowledged');
    ledger.record('POST b', [{ key: orderKey('b'), before: ABSENT, after: one }], 'unanswered');
    ledger.record('POST c', [{ key: orderKey('c'), before: ABSENT, after: one }], 'unanswered');
    ledger.record('POST d', [{ key: orderKey('d'), before: ABSENT, after: one }], 'refused');
    const verdict = ledger.verify(
      new Map([
        [orderKey('a'), two],
        [orderKey('b'), one],
      ]),
    );
    expect(verdict).toMatchObject({
      writes: { sent: 5, acknowledged: 2, refused: 1, unanswered: 2 },
      found: 2,
      missing: 0,
      unanswered: { whole: 1, absent: 1, halfWritten: 0 },
      problems: [],
    });
  });

  it('counts an acknowledged write whose change is not stored as missing', () => {
    const ledger = new DocumentLedger();
    ledger.record('POST a', [{ key: orderKey('a'), before: ABSENT, after: one }], 'acknowledged');
    ledger.record('PUT a', [{ key: orderKey('a'), before: one, after: two }], 'acknowledged');
    const verdict = ledger.verify(new Map([[orderKey('a'), one]]));
    expect(verdict).toMatchObject({ found: 1, missing: 1, wrongStates: 1 });
    expect(verdict.problems).toEqual([`order a: stored ${one}; the answers allow only ${two}`]);
  });

  it('finds a document half-written, within one order or across a customer and its orders', () => {
    const ledger = new DocumentLedger();
    ledger.record('PUT a', [{ key: orderKey('a'), before: ABSENT, after: two }], 'unanswered');
    ledger.record(
      'POST Customers',
      [
        { key: customerKey('Chaos 1'), before: ABSENT, after: CUSTOMER_PRESENT },
        { key: orderKey('b'), before: ABSENT, after: one },
      ],
      'unanswered',
    );
    const verdict = ledger.verify(
      new Map([
        [orderKey('a'), half],
        [customerKey('Chaos 1'), CUSTOMER_PRESENT],
      ]),
    );
    expect(verdict.unanswered).toEqual({ whole: 0, absent: 0, halfWritten: 2 });
    expect(verdict.missing).toBe(0);
  });

  it('flags a refused write that was stored, and rows the load never wrote', () => {
    const ledger = new DocumentLedger();
    ledger.record('POST a', [{ key: orderKey('a'), before: ABSENT, after: one }], 'refused');
    const verdict = ledger.verify(
      new Map([
        [orderKey('a'), one],
        [orderKey('z'), one],
      ]),
    );
    expect(verdict.wrongStates).toBe(2);
    expect(verdict.problems).toHaveLength(2);
  });
});
