#!/usr/bin/env node
/**
 * `npm run build`: compiles the service into dist/ with tsc (incremental: a second build compiles
 * only what changed), then removes compiled files whose source is gone (a regenerated project
 * leaves no stale entities behind) and stamps dist/ with the time the build started.
 *
 * `--if-stale` (what `npm start` and the `migration:*` scripts run first) builds only when a
 * source is newer than the stamp, so starting an unchanged checkout costs no compile.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.build-stamp');
const BUILD_INFO = join(DIST, '.tsbuildinfo');
/** What tsconfig.build.json compiles, and what decides how. Folders count too: deleting a file changes its folder's time. */
const INPUTS = ['src', 'providers/types.d.ts', 'ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

/**
 * Every file and folder under `path` (the path itself included).
 * @param {string} path
 * @returns {Generator<string>}
 */
function* walk(path) {
  yield path;
  if (!statSync(path).isDirectory()) return;
  for (const entry of readdirSync(path)) yield* walk(join(path, entry));
}

function newestInputTime() {
  let newest = 0;
  for (const input of INPUTS) {
    const path = join(ROOT, input);
    if (!existsSync(path)) continue;
    for (const file of walk(path)) newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
}

/**
 * Marks dist/ as compiled from the sources as they were at `compileStarted`: a source changed
 * after that moment (even during the compile) makes dist/ stale again.
 * @param {Date} compileStarted
 */
export function stampDist(compileStarted) {
  writeFileSync(STAMP, `${compileStarted.toISOString()}\n`);
  utimesSync(STAMP, compileStarted, compileStarted);
}

export function isStale() {
  return !existsSync(STAMP) || newestInputTime() > statSync(STAMP).mtimeMs;
}

/** @param {string} file */
const isSource = (file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.endsWith('.spec.ts');
/** @param {string} source */
const compiledOf = (source) => join(DIST, source.replace(/\.ts$/, '.js'));

/** Incremental tsc trusts its build info even when outputs were deleted by hand: then it starts over. */
function forgetBuildInfoIfOutputsAreMissing() {
  const missing = [...walk(join(ROOT, 'src'))].some((file) => isSource(file) && !existsSync(compiledOf(relative(ROOT, file))));
  if (missing) rmSync(BUILD_INFO, { force: true });
}

/** Compiled files (and their maps) under dist/src whose TypeScript source no longer exists, and folders left empty. */
function removeOrphans() {
  const compiledSrc = join(DIST, 'src');
  if (!existsSync(compiledSrc)) return;
  const paths = [...walk(compiledSrc)];
  for (const file of paths) {
    const match = /^(.*)\.js(\.map)?$/.exec(relative(DIST, file));
    if (match && !existsSync(join(ROOT, `${match[1]}.ts`))) rmSync(file);
  }
  for (const folder of paths.reverse()) {
    if (existsSync(folder) && statSync(folder).isDirectory() && readdirSync(folder).length === 0) rmSync(folder, { recursive: true });
  }
}

function build() {
  const started = new Date();
  forgetBuildInfoIfOutputsAreMissing();
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const args = [tsc, '-p', 'tsconfig.build.json', '--incremental', '--tsBuildInfoFile', BUILD_INFO];
  const { status } = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (status !== 0) return status ?? 1;
  removeOrphans();
  stampDist(started);
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ifStale = process.argv.includes('--if-stale');
  if (ifStale && !isStale()) {
    process.stdout.write('dist/ is current with the sources; not rebuilding\n');
  } else {
    process.exitCode = build();
  }
}
