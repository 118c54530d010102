import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Creates a missing SQLite database file readable and writable by its owner only (0600), in
 * a folder of the owner's only (0700) when Tessera creates that too. The file holds every row,
 * token hash and password hash; SQLite gives its -wal and -shm files the database file's own
 * permissions, so they follow. An existing file keeps the permissions its owner gave it.
 */
export function prepareSqliteFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    // An empty file is a valid, empty SQLite database; "wx" never touches one that exists.
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}
