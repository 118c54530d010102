/**
 * The console's Extensions page (issue 28, item 7) in a real headless Chromium against the demo on SQLite: without
 * an API token it says where to give one; with one it lists, per API version, what the project adds to its API from
 * the meta endpoints: resources that are not tables, functions and procedures ("none" when there are none), the
 * request and response events with their filters, and the versions with their own custom resources.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import type { Browser, Locator, Page } from 'playwright-core';
import { createManualToken } from './support/auth.js';
import { HAS_CHROMIUM, launchChromium, withScreenshotOnFailure } from './support/browser.js';
import { startTestApp, TEST_ADMIN_PASSWORD, TEST_ADMIN_USER, testTargets, type TestApp } from './support/test-app.js';

const targets = testTargets().filter((t) => t.database === 'sqlite');

// Skipped without Debian's chromium (apt-get install chromium; .ci/run installs it): there is no browser to drive.
(HAS_CHROMIUM ? describe.each(targets) : describe.skip.each(targets))('the console Extensions page in a browser ($name)', (target) => {
  let t: TestApp | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let origin: string;

  const step = (name: string, body: () => Promise<void>) =>
    it(name, () => withScreenshotOnFailure(page, `console-extensions-${target.adapter}-${name}`, body), 60_000);

  const section = (title: string): Locator => page.getByRole('region', { name: title, exact: true });
  const rows = async (title: string): Promise<string[][]> =>
    section(title)
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())));

  beforeAll(async () => {
    t = await startTestApp(target);
    await t.app.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${origin}/admin/`);
    await page.getByLabel('Admin user name').fill(TEST_ADMIN_USER);
    await page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('tr[data-login="demo"]').waitFor();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  step('says where to give an API token when the console has none', async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Extensions', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Extensions' }).waitFor();
    const notice = page.getByRole('status').filter({ hasText: 'API token' });
    await notice.waitFor();
    expect(await notice.getByRole('link', { name: 'Data' }).getAttribute('href')).toBe('/admin/data');
  });

  step("lists v1's extensions from the meta endpoints, an empty list as none", async () => {
    await page.goto(`${origin}/admin/data`);
    const panel = page.locator('details.panel');
    if ((await panel.getAttribute('open')) === null) await panel.locator('summary').click();
    await page.getByLabel('Paste an API token').fill(await createManualToken(t!, { roles: ['Read only'], label: 'console' }));
    await page.getByRole('button', { name: 'Use this token' }).click();
    await page.locator('#resource option', { hasText: /^lineitem$/ }).waitFor({ state: 'attached' });
    await page.goto(`${origin}/admin/extensions`);
    await section('Request events').waitFor();
    // The demo's function resource, SQL resource and function; its stored procedure exists on MariaDB and PostgreSQL only.
    for (const [title, name] of [
      ['Function resources', 'owedByCustomer'],
      ['SQL resources', 'customer_orders'],
      ['Functions', 'giveRaise'],
    ]) {
      expect(await section(title!).getByRole('listitem').allTextContents()).toEqual([expect.stringContaining(name!)]);
    }
    expect(await section('Stored procedures').locator('p.none').textContent()).toBe('none');
    expect(await rows('Request events')).toEqual([
      ['limitLineitemQuantity', 'lineitem', 'POST, PUT', 'every', `${t!.config.api.extensionTimeoutMs} ms`],
    ]);
    expect(await rows('Response events')).toEqual([
      ['customerBalanceStatus', 'customer', 'GET', 'v2', `${t!.config.api.extensionTimeoutMs} ms`, 'balance_status'],
    ]);
    expect(await rows('API versions')).toEqual([
      ['v1', '@docs', 'Customers (v1 only), OrderEntry, CustomerDebts'],
      ['v2', '@docs', 'Customers (v2 only), OrderEntry, CustomerDebts'],
    ]);
    expect(await section('API versions').getByRole('link', { name: '@docs' }).first().getAttribute('href')).toMatch(
      /\/rest\/default\/demo\/v1\/@docs\/ui$/,
    );
  });

  step('reads another version when it is picked', async () => {
    const read = page.waitForRequest((r) => r.url().includes('/rest/default/demo/v2/@events'));
    await page.getByLabel('API version', { exact: true }).selectOption('/rest/default/demo/v2');
    await read;
    await section('Response events').waitFor();
    expect((await rows('Response events')).map((row) => row[0])).toEqual(['customerBalanceStatus']);
  });
});
