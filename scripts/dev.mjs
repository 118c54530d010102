#!/usr/bin/env node
/**
 * `npm run dev`: tsc in watch mode (incremental, into dist/ like `npm run build`) and the
 * service, restarted after every compile that found no errors. A compile with errors keeps the
 * running service and prints them; the next clean compile restarts it.
 *
 * Ctrl+C (or SIGTERM) stops both. Extra arguments go to node, e.g. `npm run dev -- --inspect`.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { stampDist } from './build.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const nodeArgs = ['--enable-source-maps', ...process.argv.slice(2), join(ROOT, 'dist', 'src', 'main.js')];
/** @param {string} line */
const say = (line) => process.stdout.write(`dev: ${line}\n`);

/** @type {import('node:child_process').ChildProcess | undefined} */
let service;
let stopping = false;

function stopService() {
  const running = service;
  service = undefined;
  if (!running || running.exitCode !== null || running.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    running.once('exit', resolve);
    running.kill('SIGTERM');
  });
}

async function restartService() {
  await stopService();
  if (stopping) return;
  say('starting the service');
  const started = spawn(process.execPath, nodeArgs, { cwd: ROOT, stdio: 'inherit' });
  started.once('exit', (code, signal) => {
    if (service === started && !stopping) say(`the service stopped (${signal ?? `exit ${code}`}); waiting for the next change`);
  });
  service = started;
}

const tsc = spawn(
  process.execPath,
  [
    join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
    ...['-p', 'tsconfig.build.json', '--watch', '--preserveWatchOutput', '--incremental'],
    ...['--tsBuildInfoFile', join(ROOT, 'dist', '.tsbuildinfo')],
  ],
  { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
);

// tsc starts every compile with "Starting (incremental) compilation" and ends it with
// "Found N errors. Watching for file changes."
let restarts = Promise.resolve();
let compileStarted = new Date();
createInterface({ input: tsc.stdout }).on('line', (line) => {
  process.stdout.write(`${line}\n`);
  if (/Starting (incremental )?compilation/.test(line)) compileStarted = new Date();
  const found = /Found (\d+) errors?\. Watching for file changes/.exec(line);
  if (!found) return;
  if (found[1] !== '0') {
    say('compile errors; the service keeps running the last good build');
    return;
  }
  // The stamp keeps `npm start` from compiling again what watch mode just compiled.
  stampDist(compileStarted);
  restarts = restarts.then(restartService);
});

async function shutdown() {
  if (stopping) return;
  stopping = true;
  tsc.kill('SIGTERM');
  await restarts;
  await stopService();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
tsc.once('exit', () => void shutdown());
