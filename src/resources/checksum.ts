import { createHash } from 'node:crypto';
import type { Resource } from './resource-registry.js';
import type { CanonicalRow } from './value-codec.js';

/**
 * `R:` + 16 hex digits of a SHA-256 over the row's canonical column values, in column
 * order. Canonical values are the same on every database, so is the checksum.
 */
export function rowChecksum(resource: Resource, row: CanonicalRow): string {
  const hash = createHash('sha256');
  for (const column of resource.columns) {
    const value = row[column.name];
    hash.update(column.name);
    hash.update(value === null || value === undefined ? '\u0000' : `\u0001${typeof value}:${String(value)}`);
    hash.update('\u001f');
  }
  return `R:${hash.digest('hex').slice(0, 16)}`;
}
