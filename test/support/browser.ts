import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium package: the browser suites drive it with playwright-core (nothing is downloaded). */
export const CHROMIUM = process.env.TEST_CHROMIUM || '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
/** Where a failing browser test leaves its screenshots (gitignored). */
export const ARTIFACTS = join(process.cwd(), 'test-artifacts');

/** Headless, offline-minded: no first-run pages, no calls home, no background networking of its own. */
export function launchBrowser(): Promise<Browser> {
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
