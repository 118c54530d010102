#!/usr/bin/env node
/**
 * `node scripts/console-screenshot.mjs`: takes docs/console.png, the README's picture of the console (1280×800), from
 * the built service (run `npm run build` first) on a scratch SQLite database, in Debian's chromium driven by
 * playwright-core. Nothing is downloaded.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { launchChromium, signInToConsole, submitNewSalesRep } from './console-browser.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'Screenshot-Admin-Passw0rd';

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'tessera-screenshot-'));
const port = await freePort();
const service = spawn(process.execPath, [join(ROOT, 'dist', 'src', 'main.js')], {
  env: {
    PATH: process.env.PATH,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
    TESSERA_ADMIN_PASSWORD: PASSWORD,
    LOG_FORMAT: 'json',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let output = '';
service.stdout.on('data', (chunk) => (output += String(chunk)));
const browser = await launchChromium();
try {
  for (let waited = 0; !output.includes('Tessera is listening'); waited += 100) {
    if (waited > 60_000 || service.exitCode !== null) throw new Error(`the service did not start:\n${output}`);
    await sleep(100);
  }
  const origin = `http://127.0.0.1:${port}`;
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await signInToConsole(page, origin, PASSWORD);
  const form = await submitNewSalesRep(page, { login: 'alice', email: 'alice@example', employeeId: '2' });
  await form.locator('[data-field="email"] .field-error').waitFor();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(ROOT, 'docs', 'console.png') });
  process.stdout.write('docs/console.png written\n');
} finally {
  await browser.close();
  service.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
