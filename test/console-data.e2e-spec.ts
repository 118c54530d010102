/**
 * The console's data editor (issue 30, item 9) in a real headless Chromium against a running service on SQLite: derived
 * attributes read-only, foreign keys picked from their parent's rows, relations followed both ways, total counts; and,
 * with a role that reads only some rows and columns, that none of these shows more than that role may read.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import type { Browser, Page, Request } from 'playwright-core';
import { apiWithKey, type Api } from './support/api.js';
import { createManualToken } from './support/auth.js';
import { HAS_CHROMIUM, launchChromium, withScreenshotOnFailure } from './support/browser.js';
import { demoProjectWithRoles } from './support/demo-project.js';
import { startTestApp, TEST_ADMIN_PASSWORD, TEST_ADMIN_USER, testTargets, type TestApp } from './support/test-app.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies of many shapes

/**
 * The demo with a role for a sales desk that may use the meta endpoints (so the Data page can list resources): its
 * own orders and their line items only, customers without their credit limit, employees without their names.
 */
const project = demoProjectWithRoles([
  {
    name: 'Rep desk',
    defaultAccess: 'NONE',
    metaAccess: true,
    resources: {
      purchaseorder: { access: ['READ', 'UPDATE'], rowFilter: 'salesrep_id = @{employee_id}' },
      lineitem: { access: ['ALL'], rowFilter: 'purchaseorder.salesrep_id = @{employee_id}' },
      product: { access: ['READ'] },
      customer: { access: ['READ'], readColumns: ['name', 'balance'] },
      employee: { access: ['READ'], readColumns: ['employee_id', 'login'] },
    },
  },
]);

const targets = testTargets().filter((t) => t.database === 'sqlite');

// Skipped without Debian's chromium (apt-get install chromium; .ci/run installs it): there is no browser to drive.
(HAS_CHROMIUM ? describe.each(targets) : describe.skip.each(targets))('the console data editor in a browser ($name)', (target) => {
  let t: TestApp | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let origin: string;
  let full: Api;
  let rep: Api;
  let repKey: string;
  const requests: Request[] = [];
  const cspViolations: string[] = [];

  const step = (name: string, body: () => Promise<void>) =>
    it(name, () => withScreenshotOnFailure(page, `console-data-${target.adapter}-${name}`, body), 60_000);

  /** Every row a list answers (no next_batch element). */
  const all = async (api: Api, path: string): Promise<Json[]> =>
    ((await api.get(`${path}${path.includes('?') ? '&' : '?'}pagesize=5000`).expect(200)).body as Json[]).filter(
      (r) => r['@metadata']?.href,
    );

  async function useDataToken(key: string): Promise<void> {
    await page.goto(`${origin}/admin/data`);
    const panel = page.locator('details.panel');
    if ((await panel.getAttribute('open')) === null) await panel.locator('summary').click();
    await page.getByLabel('Paste an API token').fill(key);
    await page.getByRole('button', { name: 'Use this token' }).click();
    await page.locator('#resource option', { hasText: /^lineitem$/ }).waitFor({ state: 'attached' });
  }

  /** Opens the Data page's editor on a row by its address, and waits for its fields. */
  async function openRow(path: string): Promise<void> {
    await page.goto(`${origin}/admin/data/${path}`);
    await page.getByRole('form', { name: 'Edit row' }).waitFor();
  }

  const editor = () => page.getByRole('form', { name: 'Edit row' });
  const pagerText = () => page.locator('nav.pager span').textContent();

  beforeAll(async () => {
    t = await startTestApp(target, { project });
    await t.app.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    full = apiWithKey(t, await createManualToken(t, { roles: ['Full access'], label: 'full' }));
    repKey = await createManualToken(t, { roles: ['Rep desk'], globals: { employee_id: 1 }, label: 'rep desk' });
    rep = apiWithKey(t, repKey);
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('request', (request) => requests.push(request));
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await page.goto(`${origin}/admin/`);
    await page.getByLabel('Admin user name').fill(TEST_ADMIN_USER);
    await page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('tr[data-login="demo"]').waitFor();
    await useDataToken(await createManualToken(t, { roles: ['Full access'], label: 'console' }));
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  step('shows the attributes rules derive as text, not inputs, and never sends them', async () => {
    const [item] = (await full.get('/lineitem/1').expect(200)).body as Json[];
    await openRow('lineitem/1');
    for (const name of ['amount', 'product_price']) {
      const field = editor().locator(`[data-field="${name}"]`);
      expect(await field.locator('input').count()).toBe(0);
      expect(await field.locator('output').textContent()).toBe(String(item![name]));
      expect(await field.locator('.hint').textContent()).toContain('derived by a rule');
    }
    await editor().getByLabel('qty_ordered').fill('2');
    const put = page.waitForRequest((r) => r.method() === 'PUT' && new URL(r.url()).pathname.endsWith('/lineitem/1'));
    await editor().getByRole('button', { name: 'Save' }).click();
    const sent = JSON.parse((await put).postData() ?? '{}') as Json;
    expect(Object.keys(sent).sort()).toEqual(['@metadata', 'qty_ordered']);
    await page.getByLabel('Transaction summary').waitFor();
    await openRow('lineitem/1');
    expect(await editor().locator('[data-field="amount"] output').textContent()).toBe(String(2 * Number(item!.product_price)));

    await page.getByRole('button', { name: 'Insert a row' }).click();
    const fresh = page.getByRole('form', { name: 'New row' });
    expect(await fresh.locator('[data-field="amount"] input').count()).toBe(0);
    expect(await fresh.locator('[data-field="amount"] output').textContent()).toBe('computed by a rule');
    await fresh.getByRole('button', { name: 'Close' }).click();
  });

  step("picks a foreign key from its parent's rows, found by their label or key", async () => {
    await openRow('lineitem/1');
    const product = editor().locator('[data-field="product_number"]');
    const input = product.getByRole('combobox');
    await product.locator('.picked', { hasText: 'Hammer (1)' }).waitFor();
    await input.fill('dri');
    await product.getByRole('option', { name: 'Drill (3)' }).click();
    expect(await input.inputValue()).toBe('3');
    await product.locator('.picked', { hasText: 'Drill (3)' }).waitFor();
    // By keyboard: the first match is active, Enter takes it.
    await input.fill('sho');
    await product.getByRole('option', { name: 'Shovel (2)' }).waitFor();
    await input.press('Enter');
    expect(await input.inputValue()).toBe('2');
    // By key: a number finds the row with that key.
    await input.fill('5');
    const byKey = product.getByRole('option', { name: /\(5\)$/ });
    await byKey.waitFor();
    const [five] = (await full.get('/product/5').expect(200)).body as Json[];
    expect(await byKey.textContent()).toBe(`${five!.name} (5)`);
    await input.press('Escape');
    expect(await product.getByRole('option').count()).toBe(0);
    await input.fill('');
    await product.getByRole('button', { name: 'Choose from product' }).click();
    await product.getByRole('option', { name: 'Drill (3)' }).click();
    await editor().getByRole('button', { name: 'Save' }).click();
    await page.getByLabel('Transaction summary').waitFor();
    const [saved] = (await full.get('/lineitem/1').expect(200)).body as Json[];
    expect(saved).toMatchObject({ product_number: 3, product_price: 315 });

    // A text key: the customer of an order, searched by name.
    await openRow('purchaseorder/2');
    const customer = editor().locator('[data-field="customer_name"]');
    await customer.getByRole('combobox').fill('alpha');
    await customer.getByRole('option', { name: 'Alpha and Sons' }).click();
    expect(await customer.getByRole('combobox').inputValue()).toBe('Alpha and Sons');
  });

  step("follows a relation: an order's customer and line items, the customer's orders, and back", async () => {
    const [order] = (await full.get('/purchaseorder/1').expect(200)).body as Json[];
    const items = await all(full, '/lineitem?sysfilter=equal(order_number:1)');
    await openRow('purchaseorder/1');
    const relations = editor().locator('.relations');
    const lineitems = relations.locator('section[data-relation="lineitem"]');
    await lineitems.locator('h3', { hasText: `lineitem (${items.length})` }).waitFor();
    expect(await lineitems.locator('li a').allTextContents()).toEqual(items.map((i) => String(i.lineitem_id)));

    // The parent: its row opens in the editor, and the address names it.
    await relations.locator('li[data-relation="customer"] a', { hasText: order!.customer_name }).click();
    await page.getByRole('heading', { name: `Edit customer ${order!.customer_name}` }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/admin/data/customer/${encodeURIComponent(order!.customer_name)}`);
    const orders = await all(full, `/purchaseorder?sysfilter=${encodeURIComponent(`equal(customer_name:'${order!.customer_name}')`)}`);
    const theirs = editor().locator('section[data-relation="purchaseorder"]');
    await theirs.locator('h3', { hasText: `purchaseorder (${orders.length})` }).waitFor();
    // All of them in the list: filtered by the relation, with their count.
    await theirs.getByRole('link', { name: `All ${orders.length} in the list` }).click();
    await page.locator('.relation-filter').waitFor();
    await page.locator('nav.pager span', { hasText: `1–${orders.length} of ${orders.length}` }).waitFor();
    expect(await page.locator('table.data-table tbody tr').count()).toBe(orders.length);
    expect(await page.locator('table.data-table tbody tr td:nth-child(3)').allTextContents()).toEqual(
      orders.map(() => order!.customer_name),
    );

    // Back to the customer, then to the order we came from.
    await page.goBack();
    await page.getByRole('heading', { name: `Edit customer ${order!.customer_name}` }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'Edit purchaseorder 1' }).waitFor();
    // A child: its row opens.
    await lineitems.locator('li a').first().click();
    await page.getByRole('heading', { name: `Edit lineitem ${items[0]!.lineitem_id}` }).waitFor();
  });

  step('shows the rule log of a save, folded: each firing in order, the balance with its old and new value', async () => {
    // A line item of an unpaid order moves its customer's balance (the sum counts unpaid orders only).
    const unpaid = new Map(
      (await all(full, `/purchaseorder?filter=${encodeURIComponent('paid = false')}`)).map((o) => [o.order_number, o]),
    );
    const item = (await all(full, '/lineitem')).find((i) => unpaid.has(i.order_number))!;
    const order = unpaid.get(item.order_number)!;
    const customerPath = `/customer/${encodeURIComponent(order.customer_name)}`;
    await full.put(customerPath, { '@metadata': { checksum: 'override' }, credit_limit: 1000000 }).expect(200);
    const [before] = (await full.get(customerPath).expect(200)).body as Json[];
    await openRow(`lineitem/${item.lineitem_id}`);
    await editor()
      .getByLabel('qty_ordered')
      .fill(String(Number(item.qty_ordered) + 1));
    const put = page.waitForRequest((r) => r.method() === 'PUT' && new URL(r.url()).pathname.endsWith(`/lineitem/${item.lineitem_id}`));
    await editor().getByRole('button', { name: 'Save' }).click();
    expect(new URL((await put).url()).searchParams.get('rulelog')).toBe('true');
    const panel = page.getByLabel('Rule log');
    await panel.waitFor();
    // Folded until opened.
    expect(await panel.locator('li').first().isVisible()).toBe(false);
    await panel.locator('summary').click();
    const [after] = (await full.get(customerPath).expect(200)).body as Json[];
    expect(Number(after!.balance)).toBeGreaterThan(Number(before!.balance));
    const balance = panel.locator('li[data-rule="sum customer.balance"]');
    expect(await balance.textContent()).toBe(
      `sum customer.balance on main:customer ${order.customer_name} balance: ${before!.balance} → ${after!.balance}`,
    );
    const names = await panel.locator('li strong').allTextContents();
    expect(names.indexOf('formula lineitem.amount')).toBeLessThan(names.indexOf('sum purchaseorder.amount_total'));
    expect(names.indexOf('sum purchaseorder.amount_total')).toBeLessThan(names.indexOf('sum customer.balance'));
    expect(await panel.locator('li[data-rule="constraint customer #2"]').first().textContent()).toMatch(/ passed$/);
    expect(await panel.locator('summary').textContent()).toBe(`Rule log: ${names.length} rules fired`);
  });

  step('shows the total of a list, filtered or not, counted by the API', async () => {
    const customers = await all(full, '/customer');
    await page.goto(`${origin}/admin/data/customer`);
    await page.locator('nav.pager span', { hasText: `1–20 of ${customers.length}` }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.locator('nav.pager span', { hasText: `21–${customers.length} of ${customers.length}` }).waitFor();
    const owing = customers.filter((c) => Number(c.balance) > 100).length;
    await page.getByLabel('Filter').fill('balance > 100');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.locator('nav.pager span', { hasText: ` of ${owing}` }).waitFor();
    expect(await pagerText()).toBe(`1–${Math.min(20, owing)} of ${owing}`);
    // No list was read whole for it: every read of customers asked for one page at most.
    const listed = requests
      .filter((r) => new URL(r.url()).pathname === `${t!.base}/customer`)
      .map((r) => Number(new URL(r.url()).searchParams.get('pagesize')));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((size) => size > 0 && size <= 20)).toBe(true);
    expect(requests.some((r) => r.url().includes('/@count/customer'))).toBe(true);
  });

  step('opens a row only from an address naming one key: no other path is reached with the data token', async () => {
    const before = requests.length;
    for (const address of ['lineitem/%2e%2e', 'lineitem/1/..%2F..%2Fcustomer', 'lineitem/%2E%2E/customer']) {
      await page.goto(`${origin}/admin/data/${address}`);
      await page.locator('nav.pager span', { hasText: ' of ' }).waitFor();
      expect(await page.getByRole('form', { name: 'Edit row' }).count()).toBe(0);
    }
    const reached = requests.slice(before).map((r) => new URL(r.url()).pathname);
    expect(reached.filter((path) => path.startsWith('/rest/') && /\/lineitem\/|\.\./i.test(path))).toEqual([]);
  });

  step('with a role that reads some rows and columns only: counts, pickers and relations show no more', async () => {
    await useDataToken(repKey);
    const allOrders = await all(full, '/purchaseorder');
    const his = await all(rep, '/purchaseorder');
    expect(his.length).toBeGreaterThan(0);
    expect(his.length).toBeLessThan(allOrders.length);
    await page.goto(`${origin}/admin/data/purchaseorder`);
    await page.locator('nav.pager span', { hasText: ` of ${his.length}` }).waitFor();
    expect(await pagerText()).toBe(`1–${Math.min(20, his.length)} of ${his.length}`);

    // His order's customer: the customer's orders are his only, and their count too.
    const order = his[0]!;
    await openRow(`purchaseorder/${order.order_number}`);
    const salesrep = editor().locator('.relations li[data-relation="salesrep"]');
    // The employee's name is hidden from this role: the link shows the key, and the picker offers keys.
    await salesrep.locator('a', { hasText: /^1$/ }).waitFor();
    const picker = editor().locator('[data-field="salesrep_id"]');
    await picker.getByRole('button', { name: 'Choose from employee' }).click();
    await picker.getByRole('option').first().waitFor();
    const [sam] = (await full.get('/employee/1').expect(200)).body as Json[];
    expect((await picker.getByRole('option').allTextContents()).join(' ')).not.toContain(sam!.name);
    expect(await page.content()).not.toContain(sam!.name);
    await picker.getByRole('combobox').press('Escape');

    await editor().locator('li[data-relation="customer"] a').click();
    await page.getByRole('heading', { name: `Edit customer ${order.customer_name}` }).waitFor();
    const hisForCustomer = his.filter((o) => o.customer_name === order.customer_name);
    const allForCustomer = allOrders.filter((o) => o.customer_name === order.customer_name);
    const orders = editor().locator('section[data-relation="purchaseorder"]');
    await orders.locator('h3', { hasText: `purchaseorder (${hisForCustomer.length})` }).waitFor();
    expect(await orders.locator('li a').count()).toBe(Math.min(5, hisForCustomer.length));
    // Not a field for what the role may not read: customers' credit limits are hidden from it.
    expect(await editor().locator('[data-field="credit_limit"]').count()).toBe(0);
    expect(allForCustomer.length).toBeGreaterThanOrEqual(hisForCustomer.length);
  });

  it('made no request to another origin, and broke no Content-Security-Policy rule', () => {
    expect(requests.filter((r) => !r.url().startsWith(`${origin}/`) && !r.url().startsWith('data:'))).toEqual([]);
    expect(cspViolations).toEqual([]);
  });
});
