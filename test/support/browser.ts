import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM } from '../../scripts/console-browser.mjs';

/** The browser suites drive Debian's chromium (scripts/console-browser.mjs: launchChromium, and the console's shared steps). */
export { CHROMIUM, launchChromium, signInToConsole, submitNewSalesRep } from '../../scripts/console-browser.mjs';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
/** Where a failing browser test leaves its screenshots (gitignored). */
export const ARTIFACTS = join(process.cwd(), 'test-artifacts');

/** Saves the page as `test-artifacts/<name>.png` (a failure's evidence); never throws. */
export async function saveScreenshot(page: Page, name: string): Promise<string | undefined> {
  try {
    mkdirSync(ARTIFACTS, { recursive: true });
    const path = join(ARTIFACTS, `${name.replace(/[^A-Za-z0-9._-]+/g, '-')}.png`);
    await page.screenshot({ path, fullPage: true });
    return path;
  } catch {
    return undefined;
  }
}

/**
 * Runs `body` with `page`; when it throws, the page's screenshot is saved under test-artifacts/ first and the error
 * says where.
 */
export async function withScreenshotOnFailure(page: Page, name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    const path = await saveScreenshot(page, name);
    if (error instanceof Error && path) error.message += `\n(screenshot: ${path})`;
    throw error;
  }
}
