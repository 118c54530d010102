import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface PackageJson {
  name?: string;
  version?: string;
}

/**
 * Tessera's own folder (the one holding its package.json), found by walking up from this
 * file, so it is the same whether the service runs from the sources or from the build
 * (dist/src/...), and whatever the working directory is.
 */
function findProjectRoot(): { root: string; pkg: PackageJson } {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as PackageJson;
      if (pkg.name === 'tessera') return { root: dir, pkg };
    }
    dir = dirname(dir);
  }
  throw new Error(`Tessera's package.json was not found above ${fileURLToPath(import.meta.url)}`);
}

const found = findProjectRoot();

/** Absolute path of Tessera's folder: relative paths in the configuration that are not about the working directory start here. */
export const PROJECT_ROOT: string = found.root;

/** The running Tessera version, from package.json. */
export const PACKAGE_VERSION: string = found.pkg.version ?? 'unknown';
