import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { rowChecksum } from './checksum.js';
import type { Resource } from './resource-registry.js';
import type { CanonicalRow } from './value-codec.js';

/** The checksum as first written, one hash update per piece: stored checksums must never change. */
function piecewiseChecksum(resource: Resource, row: CanonicalRow): string {
  const hash = createHash('sha256');
  for (const column of resource.columns) {
    const value = row[column.name];
    hash.update(column.name);
    hash.update(value === null || value === undefined ? '\u0000' : `\u0001${typeof value}:${String(value)}`);
    hash.update('\u001f');
  }
  return `R:${hash.digest('hex').slice(0, 16)}`;
}

const value = fc.oneof(fc.constant(null), fc.string({ unit: 'binary' }), fc.integer(), fc.boolean(), fc.double({ noNaN: true }).map(String));

describe('rowChecksum', () => {
  it('is the same value as hashing each piece separately, for any row (lone surrogates included)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 8 }), fc.array(value, { minLength: 8, maxLength: 8 }), (names, values) => {
        const resource = { columns: names.map((name) => ({ name })) } as unknown as Resource;
        const row: CanonicalRow = Object.fromEntries(names.map((name, i) => [name, values[i]!]));
        expect(rowChecksum(resource, row)).toBe(piecewiseChecksum(resource, row));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the documented form', () => {
    const resource = { columns: [{ name: 'name' }, { name: 'balance' }] } as unknown as Resource;
    expect(rowChecksum(resource, { name: 'Alpha and Sons', balance: '10.0000' })).toMatch(/^R:[0-9a-f]{16}$/);
  });
});
