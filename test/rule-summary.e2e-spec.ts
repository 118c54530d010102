import { apiAs, type Api } from './support/api.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

interface Fired {
  type: string;
  attribute?: string;
  name: string;
}
interface RuleEntry {
  '@metadata': { href: string; resource: string; verb: string };
  rules: Fired[];
}

describeEachTarget('rulesummary=true on writes', (target) => {
  let t: TestApp;
  let demo: Api;
  let sam: Api;

  suiteApp(target, {}, async (app) => {
    t = app;
    demo = await apiAs(t, 'demo');
    sam = await apiAs(t, 'sam');
  });

  const byResource = (entries: RuleEntry[], resource: string): RuleEntry | undefined =>
    entries.find((e) => e['@metadata'].resource === resource);

  it('is absent unless asked for', async () => {
    const res = await demo.post('/lineitem', { order_number: 1, product_number: 1, qty_ordered: 1 }).expect(201);
    expect(res.body).not.toHaveProperty('rulesummary');
  });

  // The line item the request wrote is `lineitem`; the order and customer its rules changed are `main:<table>`.
  it('lists the rules that ran on each row of the summary: the line item, its order, its customer', async () => {
    const res = await demo.post('/lineitem?rulesummary=true', { order_number: 1, product_number: 2, qty_ordered: 2 }).expect(201);
    const entries = res.body.rulesummary as RuleEntry[];
    const item = byResource(entries, 'lineitem')!;
    expect(item['@metadata'].verb).toBe('INSERT');
    expect(item['@metadata'].href).toMatch(/\/lineitem\/\d+$/);
    expect(item.rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'copy', attribute: 'product_price' }),
        expect.objectContaining({ type: 'formula', attribute: 'amount' }),
      ]),
    );
    expect(byResource(entries, 'main:purchaseorder')!.rules).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'sum', attribute: 'amount_total', name: 'sum purchaseorder.amount_total' })]),
    );
    const customer = byResource(entries, 'main:customer')!;
    expect(customer['@metadata'].verb).toBe('UPDATE');
    expect(customer.rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'sum', attribute: 'balance' }),
        expect.objectContaining({ type: 'constraint' }),
      ]),
    );
    // Every row of the rule summary is a row of the txsummary.
    const hrefs = (res.body.txsummary as Array<{ '@metadata': { href: string } }>).map((r) => r['@metadata'].href);
    for (const entry of entries) expect(hrefs).toContain(entry['@metadata'].href);
  });

  it('shows a caller only rows and attributes it may read', async () => {
    const res = await sam.post('/lineitem?rulesummary=true', { order_number: 1, product_number: 3, qty_ordered: 1 });
    if (res.status !== 201) {
      // Order 1 is not Sam's: use one of his.
      const mine = (await sam.get('/purchaseorder?pagesize=1').expect(200)).body[0] as { order_number: number };
      const again = await sam
        .post('/lineitem?rulesummary=true', { order_number: mine.order_number, product_number: 3, qty_ordered: 1 })
        .expect(201);
      check(again.body);
    } else {
      check(res.body);
    }
    function check(body: { txsummary: Array<Record<string, unknown>>; rulesummary: RuleEntry[] }): void {
      expect(body.rulesummary.map((e) => e['@metadata'].resource)).toEqual(expect.arrayContaining(['lineitem', 'main:customer']));
      for (const entry of body.rulesummary) {
        const row = body.txsummary.find((r) => (r['@metadata'] as { href: string }).href === entry['@metadata'].href)!;
        expect(row).toBeDefined();
        for (const rule of entry.rules) if (rule.attribute) expect(Object.keys(row)).toContain(rule.attribute);
      }
    }
  });

  it('refuses a value other than true or false: 400 / 4000', async () => {
    const res = await demo.post('/lineitem?rulesummary=yes', { order_number: 1, product_number: 1, qty_ordered: 1 });
    expect(res.body).toMatchObject({ statusCode: 400, errorCode: 4000 });
  });
});
