/**
 * Table and column names holding HTML, slashes and spaces, as Swagger UI (<base>/@docs/ui) and the console's Data page
 * show them in a real headless Chromium: only as text, never as markup, and every request they make reaches its table.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { apiAs } from './support/api.js';
import { HAS_CHROMIUM, launchChromium, withScreenshotOnFailure } from './support/browser.js';
import { startTestApp, TEST_ADMIN_PASSWORD, TEST_ADMIN_USER, testTargets, type TestApp } from './support/test-app.js';
import { oddNamesProject } from './fixtures/odd-names/odd-names-project.js';
import { MARKUP, MARKUP_COLUMN, SLASHED } from './fixtures/odd-names/odd-names.entity.js';

const targets = testTargets().filter((t) => t.database === 'sqlite');

// Skipped without Debian's chromium (apt-get install chromium; .ci/run installs it): there is no browser to drive.
(HAS_CHROMIUM ? describe.each(targets) : describe.skip.each(targets))('odd names in a browser ($name)', (target) => {
  let t: TestApp | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let origin: string;
  const dialogs: string[] = [];
  const cspViolations: string[] = [];

  const step = (name: string, body: () => Promise<void>) =>
    it(name, () => withScreenshotOnFailure(page, `odd-names-${target.adapter}-${name}`, body), 60_000);

  /** Elements the names would make, were they markup. */
  const injected = () => page.locator('img[src="x"], b:text-is("bold")').count();

  beforeAll(async () => {
    t = await startTestApp(target, { project: oddNamesProject, env: { DOCS_PUBLIC: 'true' } });
    const api = await apiAs(t, 'demo');
    await api.post(`/${encodeURIComponent(SLASHED)}`, { name: 'slashed row' }).expect(201);
    await api.post(`/${encodeURIComponent(MARKUP)}`, { [MARKUP_COLUMN]: '<i>value</i>' }).expect(201);
    await t.app.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text());
    });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  step('Swagger UI shows the names as text: tag, descriptions, parameters', async () => {
    await page.goto(`${origin}${t!.base}/@docs/ui`);
    const tag = page.locator('.opblock-tag').filter({ hasText: MARKUP }).first();
    await tag.waitFor();
    expect(await tag.textContent()).toContain(`The ${MARKUP} table.`);
    // Open the object GET of that table: its key parameter's description names the table.
    await page
      .locator('.opblock-get .opblock-summary')
      .filter({ hasText: `Get one ${MARKUP} by key` })
      .click();
    await page
      .locator('.parameters')
      .filter({ hasText: `The id of the ${MARKUP}, URL-encoded.` })
      .waitFor();
    await page.getByRole('button', { name: 'Schemas' }).click();
    expect(await injected()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(cspViolations).toEqual([]);
  });

  step("the console's Data page shows the names and values as text and reads a table named a*/b", async () => {
    await page.goto(`${origin}/admin/`);
    await page.getByLabel('Admin user name').fill(TEST_ADMIN_USER);
    await page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('tr[data-login="demo"]').waitFor();
    await page.goto(`${origin}/admin/data`);
    await page.getByRole('checkbox', { name: 'Full access' }).check();
    await page.getByRole('button', { name: 'Make a data token' }).click();
    await page.locator('#resource option', { hasText: MARKUP }).waitFor({ state: 'attached' });
    await page.locator('#resource').selectOption(MARKUP);
    await page.locator('table.data-table').getByText('<i>value</i>').waitFor();
    expect(await page.locator('table.data-table th').allTextContents()).toContain(MARKUP_COLUMN);
    await page.locator('#resource').selectOption(SLASHED);
    await page.locator('table.data-table').getByText('slashed row').waitFor();
    expect(await injected()).toBe(0);
    expect(await page.locator('i:text-is("value")').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(cspViolations).toEqual([]);
  });
});
