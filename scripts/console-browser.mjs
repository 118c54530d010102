/**
 * The browser side shared by the console's screenshot (scripts/console-screenshot.mjs) and its browser tests
 * (test/support/browser.ts): Debian's chromium driven by playwright-core (nothing is downloaded), and the console steps
 * both take.
 */
import { chromium } from 'playwright-core';

/** Debian's chromium package, or TEST_CHROMIUM. */
export const CHROMIUM = process.env.TEST_CHROMIUM || '/usr/bin/chromium';

/**
 * Headless, offline-minded: no first-run pages, no calls home, no background networking of its own.
 * @returns {Promise<import('playwright-core').Browser>}
 */
export function launchChromium() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Signs in to the console at `origin` as the built-in admin, and waits for the users page's demo row.
 * @param {import('playwright-core').Page} page
 * @param {string} origin
 * @param {string} password
 */
export async function signInToConsole(page, origin, password) {
  await page.goto(`${origin}/admin/`);
  await page.getByLabel('Admin user name').fill('admin');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('tr[data-login="demo"]').waitFor();
}

/**
 * On the users page: opens the new-user form, fills it for a sales rep with an employee_id global, and submits it.
 * @param {import('playwright-core').Page} page
 * @param {{ login: string; password?: string; email?: string; employeeId: string }} user
 * @returns {Promise<import('playwright-core').Locator>} the form (gone once the user is created; showing its errors if refused)
 */
export async function submitNewSalesRep(page, user) {
  await page.getByRole('button', { name: 'New user' }).click();
  const form = page.getByRole('form', { name: 'New user' });
  await form.getByLabel('Login').fill(user.login);
  if (user.password !== undefined) await form.getByLabel('Password').fill(user.password);
  if (user.email !== undefined) await form.getByLabel('Email').fill(user.email);
  await form.getByRole('checkbox', { name: 'Sales rep' }).check();
  await form.getByRole('button', { name: 'Add global' }).click();
  await form.getByLabel('Global 1 name').fill('employee_id');
  await form.getByLabel('Global 1 value').fill(user.employeeId);
  await form.getByRole('button', { name: 'Create user' }).click();
  return form;
}
