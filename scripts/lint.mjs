#!/usr/bin/env node
/**
 * `npm run lint`: the type check of everything (tests included), ESLint, Prettier's check and the dependency rules, one after the other. Each
 * runs even when an earlier one failed, so one run shows every problem; the exit status is 1 if
 * any failed. Each part also runs alone: `npm run typecheck`, `lint:eslint`, `lint:format`, `lint:deps`.
 */
import { spawnSync } from 'node:child_process';

const CHECKS = ['typecheck', 'lint:eslint', 'lint:format', 'lint:deps'];

const results = CHECKS.map((script) => {
  const started = performance.now();
  const { status } = spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit', shell: process.platform === 'win32' });
  return { script, ok: status === 0, seconds: (performance.now() - started) / 1000 };
});

for (const { script, ok, seconds } of results) {
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'}  ${script.padEnd(12)} ${seconds.toFixed(1)} s\n`);
}
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
