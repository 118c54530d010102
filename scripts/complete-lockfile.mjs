#!/usr/bin/env node
/**
 * The npm registry mirror this project's machines use serves only the Linux builds of
 * packages that ship one native binary per platform (@swc/core-*, @unrs/resolver-binding-*).
 * npm then leaves the other platforms out of package-lock.json, and `npm ci` refuses the lock
 * ("Missing: … from lock file"). This adds the missing entries: version from the parent's
 * optionalDependencies, os/cpu/libc from the package name, so every npm skips them as foreign
 * platforms. Run it after any `npm install` that changes the lock: `npm run lock:complete`.
 */
import { readFileSync, writeFileSync } from 'node:fs';

/**
 * The parts of package-lock.json (lockfileVersion 3) this script reads and writes; the rest is
 * written back as it was read.
 * @typedef {{
 *   version?: string,
 *   dev?: boolean,
 *   optional?: boolean,
 *   optionalDependencies?: Record<string, string>,
 *   os?: string[],
 *   cpu?: string[],
 *   libc?: string[],
 * }} LockEntry
 * @typedef {{ packages: Record<string, LockEntry> }} Lockfile
 */

const LOCK = new URL('../package-lock.json', import.meta.url);
/** @type {unknown} a lock file npm wrote, so of the shape above */
const parsed = JSON.parse(readFileSync(LOCK, 'utf8'));
const lock = /** @type {Lockfile} */ (parsed);
const packages = lock.packages;

const OS = ['darwin', 'win32', 'linux', 'android', 'freebsd', 'openharmony', 'sunos', 'netbsd', 'openbsd', 'aix'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'wasm32'];

/** @param {string} name a package name, e.g. `@swc/core-linux-x64-musl` */
function platformOf(name) {
  const parts = name.slice(name.lastIndexOf('/') + 1).split('-');
  const os = OS.find((o) => parts.includes(o));
  const cpu =
    CPU.find((c) => parts.includes(c)) ??
    (parts.includes('gnueabihf') || parts.includes('musleabihf') || parts.includes('eabi') ? 'arm' : undefined);
  const libc = parts.some((p) => p.startsWith('musl')) ? 'musl' : parts.some((p) => p.startsWith('gnu')) ? 'glibc' : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path}/node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (packages[nested] || packages[hoisted]) continue;
    const { os, cpu, libc } = platformOf(name);
    if (!os && !cpu) continue; // not a per-platform binary: leave it to npm
    packages[hoisted] = {
      version,
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(entry.dev ? { dev: true } : {}),
      ...(libc ? { libc: [libc] } : {}),
      optional: true,
      ...(os ? { os: [os] } : {}),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`package-lock.json: ${added} per-platform entr${added === 1 ? 'y' : 'ies'} added\n`);
