import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, posix, relative } from 'node:path';
import { copiesOf, instructionOf, type DockerStage } from './dockerfile.js';

interface LockFile {
  packages: Record<string, { dev?: boolean; link?: boolean }>;
}

export interface RuntimeCopy {
  dir: string;
  remove(): void;
}

/**
 * The image's runtime folder (`WORKDIR` of the last stage) made from this checkout without
 * docker: every COPY of that stage, from the build context or from the build stage's folder.
 * The build stage's node_modules is what `npm prune --omit=dev` leaves of it: the lock file's
 * packages not flagged `dev`, copied from this checkout's node_modules, so a module that ships
 * and imports a devDependency fails to load here as it would in the image. dist/ is this
 * checkout's build (`npm test` builds first).
 */
export function makeRuntimeCopy(checkout: string, stages: DockerStage[]): RuntimeCopy {
  const runtime = stages.at(-1)!;
  const workdirs = new Map(stages.map((s) => [s.name, instructionOf(s, 'WORKDIR') ?? '/']));
  const dir = mkdtempSync(join(tmpdir(), 'tessera-runtime-'));
  for (const copy of copiesOf(runtime)) {
    const fromDir = copy.fromStage === undefined ? undefined : workdirs.get(copy.fromStage);
    const destination = join(dir, copy.destination);
    const intoFolder = copy.destination.endsWith('/') || copy.sources.length > 1;
    for (const source of copy.sources) {
      const path = fromDir === undefined ? source : posix.relative(fromDir, source);
      if (path === 'node_modules') {
        copyProductionModules(checkout, destination);
        continue;
      }
      const from = join(checkout, path);
      if (!existsSync(from)) throw new Error(`the Dockerfile copies ${source}, which this checkout does not have`);
      const to = statSync(from).isDirectory() || !intoFolder ? destination : join(destination, basename(from));
      mkdirSync(statSync(from).isDirectory() ? to : join(to, '..'), { recursive: true });
      cpSync(from, to, { recursive: true });
    }
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What `npm ci --omit=dev` installs, taken from the checkout's full install. */
function copyProductionModules(checkout: string, destination: string): void {
  const lock = JSON.parse(readFileSync(join(checkout, 'package-lock.json'), 'utf8')) as LockFile;
  for (const [key, entry] of Object.entries(lock.packages)) {
    // Top-level packages only: a nested one comes with its parent, and is production if that is.
    const topLevel = key.startsWith('node_modules/') && !key.slice('node_modules/'.length).includes('node_modules/');
    if (!topLevel || entry.dev || entry.link) continue;
    const from = join(checkout, key);
    // An optional package for another platform is in the lock file, not on disk.
    if (!existsSync(from)) continue;
    cpSync(from, join(destination, relative('node_modules', key)), { recursive: true });
  }
}
