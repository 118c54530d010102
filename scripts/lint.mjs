#!/usr/bin/env node
/**
 * `npm run lint`: the type check of everything (tests included), ESLint, Prettier's check and the dependency rules. Every
 * check runs even when another failed, so one run shows every problem; the exit status is 1 if any failed. Each part
 * also runs alone: `npm run typecheck`, `lint:eslint`, `lint:format`, `lint:deps`.
 *
 * ESLint's type-aware rules take longest and use one core, so the checks run in two lanes at once: ESLint in one, the
 * others one after the other in the other. `--build` (what `npm test` runs first) puts the build at the head of the
 * second lane, so a clean checkout's compile costs no extra time either. Each check's output is printed whole when it
 * ends, never interleaved with another's.
 *
 * The type check is incremental and Prettier keeps a cache of the files it found formatted (by content), both under
 * node_modules/.cache, so a second run re-checks only what changed; ESLint keeps none (its cache cannot see that a
 * type-aware rule's answer changed because another file did) and runs with a larger young generation
 * (--max-semi-space-size=32), which cuts its garbage collection by about a tenth.
 */
import { spawn } from 'node:child_process';

const build = process.argv.includes('--build');
const LANES = [['lint:eslint'], [...(build ? ['build'] : []), 'typecheck', 'lint:format', 'lint:deps']];

/** @param {string} script @returns {Promise<{ script: string, ok: boolean, seconds: number }>} */
function run(script) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    /** @type {Buffer[]} */
    const output = [];
    /** @param {Buffer} chunk */
    const keep = (chunk) => output.push(chunk);
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('close', (status) => {
      process.stdout.write(Buffer.concat(output));
      resolve({ script, ok: status === 0, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/** @param {string[]} scripts */
async function lane(scripts) {
  const results = [];
  for (const script of scripts) results.push(await run(script));
  return results;
}

const results = (await Promise.all(LANES.map(lane))).flat();
for (const { script, ok, seconds } of results) {
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'}  ${script.padEnd(12)} ${seconds.toFixed(1)} s\n`);
}
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
