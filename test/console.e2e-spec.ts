/**
 * The console (/admin/) and Swagger UI (<base>/@docs/ui) in a real headless Chromium against the built service run as
 * a process on SQLite: the flows an operator goes through, each with its screenshot under test-artifacts/ should it
 * fail, and every request the pages make recorded to prove none leaves Tessera's origin.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { HAS_CHROMIUM, launchChromium, signInToConsole, submitNewSalesRep, withScreenshotOnFailure } from './support/browser.js';
import { startService, type ServiceProcess } from './support/service-process.js';
import { createScratchDatabase, type ScratchDatabase } from './support/test-databases.js';
import { FULL_MATRIX } from './support/test-app.js';

const ADMIN_PASSWORD = 'Console-Admin-Passw0rd';
const API = '/rest/default/demo/v1';

/**
 * The pages are served by the HTTP server itself and must be the same on each adapter: both in the whole
 * matrix (npm run test:all), Express alone in npm test (the edge suites, static-files among them, cover Fastify).
 */
const ADAPTERS = FULL_MATRIX ? (['express', 'fastify'] as const) : (['express'] as const);

// Skipped without Debian's chromium (apt-get install chromium; .ci/run installs it): there is no browser to drive.
(HAS_CHROMIUM ? describe.each(ADAPTERS) : describe.skip.each(ADAPTERS))('the console in a browser (%s, SQLite)', (adapter) => {
  // Undefined until beforeAll gets that far: afterAll ends whatever was started.
  let scratch: ScratchDatabase | undefined;
  let service: ServiceProcess | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext;
  let page: Page;
  let origin: string;
  const requested: string[] = [];
  const cspViolations: string[] = [];

  /** A data API call from the test itself (not the browser), as another client would make it. */
  async function apiCall(method: string, path: string, key: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    const response = await fetch(`${origin}${API}/${path}`, {
      method,
      headers: { Authorization: `CALiveAPICreator ${key}:1`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: await response.json() };
  }

  /** An admin API token of the built-in admin, as another admin client would get one. */
  async function adminKey(): Promise<string> {
    const response = await fetch(`${origin}/admin/v1/@authentication`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    return ((await response.json()) as { apikey: string }).apikey;
  }

  async function demoKey(): Promise<string> {
    const response = await fetch(`${origin}${API}/@authentication`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'demo', password: 'Password1' }),
    });
    return ((await response.json()) as { apikey: string }).apikey;
  }

  const step = (name: string, body: () => Promise<void>) =>
    it(name, () => withScreenshotOnFailure(page, `${adapter}-${name}`, body), 60_000);

  async function openPage(title: string): Promise<void> {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: title, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
  }

  /** Submits `form` with its button `submit`, and answers the API's refusal shown beside `field` (once it holds `text`). */
  async function refusedBeside(form: Locator, submit: string, field: string, text = ''): Promise<string> {
    await form.getByRole('button', { name: submit }).click();
    const error = form.locator(`[data-field="${field}"] .field-error`, { hasText: text });
    await error.waitFor();
    return (await error.textContent()) ?? '';
  }

  /** Clicks the row's Delete, says yes when asked, and waits for the page to say `deleted`. */
  async function deleteConfirmed(row: Locator, deleted: string): Promise<void> {
    page.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByText(deleted).waitFor();
  }

  async function openLineitem(id: number): Promise<void> {
    await page.locator('#resource').selectOption('lineitem');
    await page.getByLabel('Filter').fill(`lineitem_id = ${id}`);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.locator('table.data-table tbody tr').first().getByRole('button', { name: 'Open' }).click();
    await page.getByRole('form', { name: 'Edit row' }).waitFor();
  }

  beforeAll(async () => {
    scratch = await createScratchDatabase('sqlite');
    service = await startService({ DATABASE_URL: scratch.url, TESSERA_ADMIN_PASSWORD: ADMIN_PASSWORD, HTTP_ADAPTER: adapter }, 600_000);
    origin = `http://127.0.0.1:${service.port}`;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on('request', (request) => requested.push(request.url()));
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text());
    });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    service?.kill();
    await service?.exited;
    await scratch?.drop();
  });

  step('serves the console at /admin/ and deep links to its pages, under a CSP of its own', async () => {
    const deep = await fetch(`${origin}/admin/users`);
    expect(deep.status).toBe(200);
    expect(deep.headers.get('cache-control')).toBe('no-cache');
    expect(deep.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await deep.text();
    const script = /src="(\/admin\/assets\/app-[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${origin}${script}`);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await fetch(`${origin}/admin/assets/..%2F..%2Fpackage.json`)).status).toBe(404);
  });

  step('signs in with an admin account', async () => {
    await signInToConsole(page, origin, ADMIN_PASSWORD);
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
  });

  step('shows a refused field beside its field', async () => {
    await page.getByRole('button', { name: 'New user' }).click();
    const form = page.getByRole('form', { name: 'New user' });
    await form.getByLabel('Login').fill('has space');
    await form.getByLabel('Password').fill('Password-1');
    await form.getByLabel('Email').fill('not-an-email');
    expect(await refusedBeside(form, 'Create user', 'login')).toContain('login must be');
    expect(await form.locator('[data-field="email"] .field-error').textContent()).toContain('email must be an email');
    expect(await form.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  step('creates a user with roles and globals', async () => {
    await submitNewSalesRep(page, { login: 'alice', password: 'Password-1', employeeId: '2' });
    await page.locator('tr[data-login="alice"]').waitFor();
    expect(await page.locator('tr[data-login="alice"] td').nth(1).textContent()).toBe('Sales rep');
    const login = await fetch(`${origin}${API}/@authentication`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'alice', password: 'Password-1' }),
    });
    expect(login.status).toBe(200);
  });

  step('edits a user, resets their password, deactivates and deletes them', async () => {
    const row = page.locator('tr[data-login="alice"]');
    await row.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit user alice' });
    await form.getByRole('checkbox', { name: 'Read only' }).check();
    await form.getByLabel('Email').fill('alice@example.com');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('User "alice" saved.').waitFor();
    await row.locator('td').nth(2).filter({ hasText: 'alice@example.com' }).waitFor();
    expect(await row.locator('td').nth(1).textContent()).toBe('Sales rep, Read only');

    await row.getByRole('button', { name: 'Reset password' }).click();
    const reset = page.getByRole('form', { name: 'Reset password of alice' });
    await reset.getByLabel('New password').fill('Another-Passw0rd');
    await reset.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Password of "alice" reset').waitFor();

    await page.getByLabel('Search').fill('ALI');
    await page.getByText('1 found').waitFor();
    await row.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByText('"alice" deactivated.').waitFor();
    await row.locator('td').nth(3).filter({ hasText: /^no$/ }).waitFor();
    await deleteConfirmed(row, '"alice" deleted.');
    await page.getByLabel('Search').fill('');
    await page.locator('tr[data-login="demo"]').waitFor();
    await row.waitFor({ state: 'detached' });
    expect(await row.count()).toBe(0);
  });

  step('creates a token and shows its key once', async () => {
    await openPage('Auth tokens');
    await page.getByRole('button', { name: 'New token' }).click();
    const form = page.getByRole('form', { name: 'New token' });
    await form.getByLabel('Label').fill('nightly export');
    await form.getByRole('checkbox', { name: 'Read only' }).check();
    await form.getByRole('button', { name: 'Create token' }).click();
    const key = (await page.locator('.new-key').textContent()) ?? '';
    expect(key.length).toBeGreaterThan(20);
    expect((await apiCall('GET', 'customer?pagesize=1', key)).status).toBe(200);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Auth tokens' }).waitFor();
    await page.locator('tbody tr').first().waitFor();
    expect(await page.locator('.new-key').count()).toBe(0);
    expect(await page.content()).not.toContain(key);
  });

  step('disables and deletes a token', async () => {
    const row = page.locator('tbody tr', { hasText: 'nightly export' });
    await row.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('Token "nightly export" disabled.').waitFor();
    await row.locator('td.status').filter({ hasText: 'disabled' }).waitFor();
    await deleteConfirmed(row, 'Token "nightly export" deleted.');
    // The message shows when the DELETE answers; the list is read again after it.
    await row.waitFor({ state: 'detached' });
    expect(await row.count()).toBe(0);
  });

  step('edits a row with a data token and shows the txsummary, rule-changed rows highlighted', async () => {
    await openPage('Data');
    await page.getByRole('checkbox', { name: 'Full access' }).check();
    await page.getByRole('button', { name: 'Make a data token' }).click();
    await page.locator('#resource option', { hasText: /^lineitem$/ }).waitFor({ state: 'attached' });
    await openLineitem(1);
    const form = page.getByRole('form', { name: 'Edit row' });
    await form.getByLabel('qty_ordered').fill('5');
    await form.getByRole('button', { name: 'Save' }).click();
    const summary = page.getByLabel('Transaction summary');
    await summary.waitFor();
    expect(await summary.locator('li.written').count()).toBe(1);
    expect(await summary.locator('li.written').textContent()).toContain('lineitem');
    expect(await summary.locator('li.by-rule').count()).toBeGreaterThanOrEqual(2);
    expect(await summary.locator('li.by-rule').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('purchaseorder'), expect.stringContaining('customer')]),
    );
  });

  step('answers a stale edit with "changed by someone else" and reloads the row', async () => {
    await openLineitem(1);
    // Someone else changes the row meanwhile.
    const key = await demoKey();
    const current = (await apiCall('GET', 'lineitem/1', key)).json as Array<{ '@metadata': { checksum: string } }>;
    const other = await apiCall('PUT', 'lineitem/1', key, { '@metadata': { checksum: current[0]!['@metadata'].checksum }, qty_ordered: 7 });
    expect(other.status).toBe(200);
    const form = page.getByRole('form', { name: 'Edit row' });
    await form.getByLabel('qty_ordered').fill('8');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('changed by someone else').waitFor();
    await page.getByRole('button', { name: 'Reload the row' }).click();
    await page.getByText('Reloaded').waitFor();
    expect(await form.getByLabel('qty_ordered').inputValue()).toBe('7');
  });

  step('inserts a row (a refused value shown beside its column), then deletes it', async () => {
    await page.locator('#resource').selectOption('customer');
    await page.getByRole('button', { name: 'Insert a row' }).click();
    const form = page.getByRole('form', { name: 'New row' });
    await form.getByLabel('name').fill('Console Test Co');
    await form.getByLabel('credit_limit').fill('lots');
    expect(await refusedBeside(form, 'Insert', 'credit_limit')).toContain('credit_limit');
    await form.getByLabel('name').fill('Alpha and Sons');
    await form.getByLabel('credit_limit').fill('1000');
    expect(await refusedBeside(form, 'Insert', 'name')).toContain('already exists');
    await form.getByLabel('name').fill('Console Test Co');
    await form.getByRole('button', { name: 'Insert' }).click();
    const summary = page.getByLabel('Transaction summary');
    await summary.locator('li.written', { hasText: 'Console Test Co' }).waitFor();
    await page.getByLabel('Filter').fill("name = 'Console Test Co'");
    await page.getByRole('button', { name: 'Apply' }).click();
    // The row by its name: until the filtered list answers, the table still shows the unfiltered one.
    await page.locator('table.data-table tbody tr', { hasText: 'Console Test Co' }).getByRole('button', { name: 'Open' }).click();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('form', { name: 'Edit row' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Deleted.').waitFor();
    const key = await demoKey();
    expect((await apiCall('GET', `customer?filter=${encodeURIComponent("name = 'Console Test Co'")}`, key)).json).toEqual([]);
  });

  step('shows the read-only pages: roles, audit, provider, API docs, my account', async () => {
    await openPage('Roles');
    await page.getByRole('heading', { level: 2, name: 'Sales rep' }).waitFor();
    await openPage('Audit');
    await page.getByRole('cell', { name: 'alice' }).first().waitFor();
    await openPage('Provider');
    await page.getByText('built-in').waitFor();
    await openPage('API docs');
    await page.getByRole('link', { name: `${API}/@docs/ui` }).waitFor();
    await openPage('My account');
    await page.getByLabel('Current password').waitFor();
  });

  step('shows each role with its grants: verbs, rows, columns, and what it gives every other resource', async () => {
    await openPage('Roles');
    const rep = page.locator('article[data-role="Sales rep"]');
    await rep.waitFor();
    const grant = (resource: string) => rep.locator(`tr[data-resource="${resource}"]`);
    const verbs = async (resource: string) =>
      Object.fromEntries(
        await Promise.all(
          ['READ', 'INSERT', 'UPDATE', 'DELETE'].map(async (verb) => [
            verb,
            await grant(resource).locator(`td[data-verb="${verb}"]`).textContent(),
          ]),
        ),
      );
    expect(await verbs('purchaseorder')).toEqual({ READ: 'yes', INSERT: 'yes', UPDATE: 'yes', DELETE: 'yes' });
    expect(await grant('purchaseorder').locator('td.rows').textContent()).toBe('salesrep_id = @{employee_id}');
    expect(await verbs('customer')).toEqual({ READ: 'yes', INSERT: '—', UPDATE: '—', DELETE: '—' });
    expect(await grant('customer').locator('td.read-columns').textContent()).toBe('name, balance');
    expect(await grant('customer').locator('td.rows').textContent()).toBe('all rows');
    expect(await verbs('every other resource')).toEqual({ READ: '—', INSERT: '—', UPDATE: '—', DELETE: '—' });
    expect(await rep.locator('dd.globals code').textContent()).toBe('employee_id');
    const readOnly = page.locator('article[data-role="Read only"]');
    expect(await readOnly.locator('tr[data-resource="every other resource"] td[data-verb="READ"]').textContent()).toBe('yes');
    expect(await readOnly.locator('tr[data-resource="every other resource"] td[data-verb="UPDATE"]').textContent()).toBe('—');
    // What the page shows is what the admin API says of the roles, every grant of every role.
    const roles = (await (
      await fetch(`${origin}/admin/v1/roles`, { headers: { Authorization: `Bearer ${await adminKey()}` } })
    ).json()) as Array<{ name: string; resources?: Record<string, unknown> }>;
    for (const role of roles) {
      const rows = page.locator(`article[data-role="${role.name}"] tbody tr`);
      expect(await rows.count()).toBe(Object.keys(role.resources ?? {}).length + 1);
    }
  });

  step('manages admin accounts: create (a refusal beside its field), change the role, reset the password', async () => {
    await openPage('Admin accounts');
    await page.locator('tr[data-admin="admin"]').waitFor();
    await page.getByRole('button', { name: 'New admin account' }).click();
    const form = page.getByRole('form', { name: 'New admin account' });
    await form.getByLabel('User name').fill('has space');
    await form.getByLabel('Password').fill('Audrey-Passw0rd-1');
    expect(await refusedBeside(form, 'Create account', 'username')).toContain('username must be');
    await form.getByLabel('User name').fill('ADMIN');
    await refusedBeside(form, 'Create account', 'username', 'already exists');
    await form.getByLabel('User name').fill('audrey');
    await form.getByLabel('Role').selectOption('auditor');
    await form.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Admin account "audrey" created.').waitFor();
    const audrey = page.locator('tr[data-admin="audrey"]');
    expect(await audrey.locator('td.role').textContent()).toBe('auditor');

    // The last admin cannot be demoted: the API says why, on the page.
    await page.locator('tr[data-admin="admin"]').getByRole('button', { name: 'Change role' }).click();
    const own = page.getByRole('form', { name: 'Role of admin' });
    await own.getByLabel('New role').selectOption('auditor');
    await own.getByRole('button', { name: 'Change role' }).click();
    await page.getByText('is the last admin account').waitFor();
    expect(await page.locator('tr[data-admin="admin"] td.role').textContent()).toBe('admin');

    await audrey.getByRole('button', { name: 'Reset password' }).click();
    const reset = page.getByRole('form', { name: 'Reset password of audrey' });
    await reset.getByLabel('New password').fill('Audrey-Passw0rd-2');
    await reset.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Password of "audrey" reset').waitFor();
    const signIn = await fetch(`${origin}/admin/v1/@authentication`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'audrey', password: 'Audrey-Passw0rd-2' }),
    });
    expect(signIn.status).toBe(200);
  });

  step('lists Admin accounts for admins only: an auditor has no such page, and gets it once promoted', async () => {
    const other = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const auditor = await other.newPage();
      await auditor.goto(`${origin}/admin/`);
      await auditor.getByLabel('Admin user name').fill('audrey');
      await auditor.getByLabel('Password').fill('Audrey-Passw0rd-2');
      await auditor.getByRole('button', { name: 'Sign in' }).click();
      const nav = auditor.getByRole('navigation', { name: 'Console' });
      await nav.getByRole('link', { name: 'Users', exact: true }).waitFor();
      expect(await nav.getByRole('link', { name: 'Admin accounts' }).count()).toBe(0);
      await auditor.goto(`${origin}/admin/admins`);
      await auditor.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
      expect(await auditor.getByRole('heading', { name: 'Admin accounts' }).count()).toBe(0);
      expect(await auditor.title()).toBe('Users - Tessera console');

      // Promoted by the admin: the auditor's console reads its role again at the next page, and lists the page.
      const audrey = page.locator('tr[data-admin="audrey"]');
      await audrey.getByRole('button', { name: 'Change role' }).click();
      const form = page.getByRole('form', { name: 'Role of audrey' });
      await form.getByLabel('New role').selectOption('admin');
      await form.getByRole('button', { name: 'Change role' }).click();
      await page.getByText('"audrey" is now an admin.').waitFor();
      await audrey.locator('td.role', { hasText: /^admin$/ }).waitFor();
      await nav.getByRole('link', { name: 'Roles', exact: true }).click();
      await nav.getByRole('link', { name: 'Admin accounts' }).click();
      await auditor.getByRole('heading', { level: 1, name: 'Admin accounts' }).waitFor();

      // Deleted: her session ends at her next call.
      await deleteConfirmed(audrey, '"audrey" deleted.');
      await audrey.waitFor({ state: 'detached' });
      await nav.getByRole('link', { name: 'Users', exact: true }).click();
      await auditor.getByRole('button', { name: 'Sign in' }).waitFor();
    } finally {
      await other.close();
    }
  });

  step('is usable at 390×844: the menu opens from its button', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  step('loads Swagger UI for the API, with the paths of its @docs', async () => {
    await page.goto(`${origin}${API}/@docs/ui`);
    await page.locator('.opblock-summary-path').first().waitFor();
    const paths = await page.locator('.opblock-summary-path').allTextContents();
    expect(paths.join(' ')).toContain('/customer');
    await page
      .getByRole('button', { name: /Authorize/ })
      .first()
      .waitFor();
  });

  step('a data token refused by the API is reported on the Data page and keeps the operator signed in', async () => {
    await page.goto(`${origin}/admin/data`);
    await page.locator('table.data-table tbody tr').first().waitFor();
    const dataKey = await page.evaluate<string | null>("sessionStorage.getItem('tessera.dataToken')");
    expect(dataKey).toBeTruthy();
    const disabled = await fetch(`${origin}${API}/@authentication`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apikey: dataKey, disable: true }),
    });
    expect(disabled.status).toBe(200);
    await page.getByLabel('Filter').fill("name = 'Alpha and Sons'");
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('The data API refused').waitFor();
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
  });

  step('changes its own password: a wrong current one is shown beside its field', async () => {
    await page.goto(`${origin}/admin/account`);
    const form = page.getByRole('form', { name: 'Change my password' });
    await form.getByLabel('Current password').fill('not-the-password');
    await form.getByLabel('New password').fill('Console-Admin-Passw0rd-2');
    await refusedBeside(form, 'Change password', 'password');
    await form.getByLabel('Current password').fill(ADMIN_PASSWORD);
    await form.getByLabel('New password').fill('short');
    await refusedBeside(form, 'Change password', 'newPassword');
    await form.getByLabel('New password').fill('Console-Admin-Passw0rd-2');
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed.').waitFor();
  });

  step('signs out', async () => {
    await page.goto(`${origin}/admin/users`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.goto(`${origin}/admin/tokens`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
  });

  it('made no request to another origin, and broke no Content-Security-Policy rule', () => {
    expect(requested.length).toBeGreaterThan(10);
    expect(requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'))).toEqual([]);
    expect(cspViolations).toEqual([]);
  });
});
