#!/usr/bin/env node
/**
 * `npm run build`: compiles the service into dist/ with tsc (incremental: a second build compiles
 * only what changed), then removes compiled files whose source is gone (a regenerated project
 * leaves no stale entities behind) and stamps dist/ with the time the build started.
 *
 * `--if-stale` (what `npm start` and the `migration:*` scripts run first) builds only when a
 * source is newer than the stamp, so starting an unchanged checkout costs no compile.
 *
 * The console (console/, served at /admin/) is built too, when its sources changed since its own stamp: type-checked
 * by tsc with console/tsconfig.json, bundled and minified by esbuild into dist/console (one script and one stylesheet
 * with hashed names, index.html naming them, and Swagger UI's start script). The build fails when the shipped bundle
 * grows past CONSOLE_BUDGET_BYTES gzipped.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.build-stamp');
const BUILD_INFO = join(DIST, '.tsbuildinfo');
/** What tsconfig.build.json compiles, and what decides how. Folders count too: deleting a file changes its folder's time. */
const INPUTS = ['src', 'providers/types.d.ts', 'ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'console'];
const CONSOLE_SOURCES = join(ROOT, 'console');
const CONSOLE_OUT = join(DIST, 'console');
const CONSOLE_STAMP = join(CONSOLE_OUT, '.build-stamp');
/** What the console's own build reads: its sources and the settings it inherits. */
const CONSOLE_INPUTS = ['console', 'tsconfig.json', 'package.json'];
/** The most the console's script and stylesheet may weigh together, gzipped (issue 17: under 250 KB). */
export const CONSOLE_BUDGET_BYTES = 250 * 1024;

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

/** @param {string[]} inputs */
function newestInputTime(inputs = INPUTS) {
  let newest = 0;
  for (const input of inputs) {
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

/** The console's script and stylesheet, gzipped, in bytes. */
export function consoleBundleBytes() {
  const assets = join(CONSOLE_OUT, 'assets');
  if (!existsSync(assets)) return 0;
  return readdirSync(assets)
    .filter((name) => /\.(js|css)$/.test(name))
    .reduce((sum, name) => sum + gzipSync(readFileSync(join(assets, name)), { level: 9 }).length, 0);
}

async function buildConsole() {
  const started = new Date();
  // A copy of the service without the console's sources (some test checkouts) builds the service alone; /admin/ is then a 404.
  if (!existsSync(join(CONSOLE_SOURCES, 'index.html'))) return 0;
  if (existsSync(CONSOLE_STAMP) && newestInputTime(CONSOLE_INPUTS) <= statSync(CONSOLE_STAMP).mtimeMs) return 0;
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const { status } = spawnSync(process.execPath, [tsc, '-p', join('console', 'tsconfig.json')], { cwd: ROOT, stdio: 'inherit' });
  if (status !== 0) return status ?? 1;
  const esbuild = await import('esbuild');
  rmSync(CONSOLE_OUT, { recursive: true, force: true });
  mkdirSync(join(CONSOLE_OUT, 'assets'), { recursive: true });
  /** @type {import('esbuild').BuildOptions} */
  const shared = { bundle: true, minify: true, target: 'es2020', legalComments: 'none', logLevel: 'warning' };
  const app = await esbuild.build({
    ...shared,
    entryPoints: { app: join(CONSOLE_SOURCES, 'src', 'main.tsx') },
    outdir: join(CONSOLE_OUT, 'assets'),
    entryNames: '[name]-[hash]',
    format: 'esm',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    metafile: true,
  });
  await esbuild.build({
    ...shared,
    entryPoints: [join(CONSOLE_SOURCES, 'swagger-init.ts')],
    outfile: join(CONSOLE_OUT, 'swagger-init.js'),
    format: 'iife',
  });
  const outputs = Object.keys(app.metafile.outputs).map((file) => file.split('/').pop() ?? '');
  const script = outputs.find((name) => name.endsWith('.js'));
  const style = outputs.find((name) => name.endsWith('.css'));
  if (!script || !style) throw new Error(`the console's build made no script or no stylesheet: ${outputs.join(', ')}`);
  const page = readFileSync(join(CONSOLE_SOURCES, 'index.html'), 'utf8').replace('__JS__', script).replace('__CSS__', style);
  writeFileSync(join(CONSOLE_OUT, 'index.html'), page);
  const bytes = consoleBundleBytes();
  if (bytes > CONSOLE_BUDGET_BYTES) {
    process.stderr.write(`The console's bundle is ${bytes} bytes gzipped, over its budget of ${CONSOLE_BUDGET_BYTES}.\n`);
    return 1;
  }
  writeFileSync(CONSOLE_STAMP, `${started.toISOString()}\n`);
  utimesSync(CONSOLE_STAMP, started, started);
  return 0;
}

async function build() {
  const consoleStatus = await buildConsole();
  if (consoleStatus !== 0) return consoleStatus;
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
    process.exitCode = await build();
  }
}
