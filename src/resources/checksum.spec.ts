import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { hmacKey, RowChecksum } from './checksum.js';
import type { Resource } from './resource-registry.js';
import type { CanonicalRow } from './value-codec.js';

/** The canonical text, one HMAC update per piece, with Node's own HMAC: what the fast path must equal. */
function referenceChecksum(secret: string, resource: Resource, row: CanonicalRow): string {
  const hmac = createHmac('sha256', hmacKey(secret));
  for (const column of resource.columns) {
    const value = row[column.name];
    hmac.update(column.name);
    hmac.update(value === null || value === undefined ? '\u0000' : `\u0001${typeof value}:${String(value)}`);
    hmac.update('\u001f');
  }
  return `R:${hmac.digest('hex').slice(0, 16)}`;
}

/** The checksum as it was before it was keyed: a plain SHA-256 over the same public format. */
function unkeyedChecksum(resource: Resource, row: CanonicalRow): string {
  const sha = createHash('sha256');
  for (const column of resource.columns) {
    const value = row[column.name];
    sha.update(`${column.name}${value === null || value === undefined ? '\u0000' : `\u0001${typeof value}:${String(value)}`}\u001f`);
  }
  return `R:${sha.digest('hex').slice(0, 16)}`;
}

const value = fc.oneof(fc.constant(null), fc.string({ unit: 'binary' }), fc.integer(), fc.boolean(), fc.double({ noNaN: true }).map(String));
const customer = { columns: [{ name: 'name' }, { name: 'balance' }, { name: 'credit_limit' }] } as unknown as Resource;

describe('RowChecksum', () => {
  it('is HMAC-SHA-256 (createHmac) over the canonical text, for any secret and row (lone surrogates included)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 80 }),
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 8 }),
        fc.array(value, { minLength: 8, maxLength: 8 }),
        (secret, names, values) => {
          const resource = { columns: names.map((name) => ({ name })) } as unknown as Resource;
          const row: CanonicalRow = Object.fromEntries(names.map((name, i) => [name, values[i]!]));
          const checksums = RowChecksum.fromSecret(secret);
          expect(checksums.of(resource, row)).toBe(referenceChecksum(secret, resource, row));
          expect(checksums.of(resource, row)).toBe(checksums.of(resource, row)); // the reused buffer holds nothing over
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps the documented form and differs from the unkeyed hash and between secrets', () => {
    const row = { name: 'Alpha and Sons', balance: '10.0000', credit_limit: '9000.0000' };
    const a = RowChecksum.fromSecret('a'.repeat(40)).of(customer, row);
    const b = RowChecksum.fromSecret('b'.repeat(40)).of(customer, row);
    expect(a).toMatch(/^R:[0-9a-f]{16}$/);
    expect(a).not.toBe(b);
    expect(a).not.toBe(unkeyedChecksum(customer, row));
  });

  it('changes with any column, null and empty text included', () => {
    const checksums = RowChecksum.fromSecret('x'.repeat(32));
    const base = { name: 'Alpha and Sons', balance: '10.0000', credit_limit: '9000.0000' };
    const variants = [base, { ...base, credit_limit: '9000.0001' }, { ...base, credit_limit: null }, { ...base, name: '' }, { ...base, balance: 10 }];
    expect(new Set(variants.map((row) => checksums.of(customer, row))).size).toBe(variants.length);
  });

  it('derives a 64-hex-digit key (SHA-256 block size, ASCII) from any secret', () => {
    expect(hmacKey('ünïcødé secret, long enough to pass')).toMatch(/^[0-9a-f]{64}$/);
  });
});
