import { createHash, createHmac, scryptSync } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { canonicalPiece, hmacKey, RowChecksum } from './checksum.js';
import type { Resource } from './resource-registry.js';
import type { CanonicalRow } from './value-codec.js';

/** The canonical text (length-prefixed values), one HMAC update per piece, with Node's own HMAC: what the fast path must equal. */
function referenceChecksum(key: string, resource: Resource, row: CanonicalRow): string {
  const hmac = createHmac('sha256', key);
  for (const column of resource.columns) {
    const value = row[column.name];
    hmac.update(column.name);
    hmac.update(value === null || value === undefined ? '\u0000' : `\u0001${typeof value}:${String(value).length}:${String(value)}`);
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
  it('is HMAC-SHA-256 (createHmac) over the canonical text, for any key and row (lone surrogates included)', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9a-f]{64}$/),
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 8 }),
        fc.array(value, { minLength: 8, maxLength: 8 }),
        (key, names, values) => {
          const resource = { columns: names.map((name) => ({ name })) } as unknown as Resource;
          const row: CanonicalRow = Object.fromEntries(names.map((name, i) => [name, values[i]!]));
          const checksums = RowChecksum.fromKey(key);
          expect(checksums.of(resource, row)).toBe(referenceChecksum(key, resource, row));
          expect(checksums.of(resource, row)).toBe(checksums.of(resource, row)); // the reused buffer holds nothing over
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps the documented form and differs from the unkeyed hash and between secrets', async () => {
    const row = { name: 'Alpha and Sons', balance: '10.0000', credit_limit: '9000.0000' };
    const a = (await RowChecksum.fromSecret('a'.repeat(40))).of(customer, row);
    const b = (await RowChecksum.fromSecret('b'.repeat(40))).of(customer, row);
    expect(a).toMatch(/^R:[0-9a-f]{16}$/);
    expect(a).not.toBe(b);
    expect(a).not.toBe(unkeyedChecksum(customer, row));
  });

  it('changes with any column, null and empty text included', () => {
    const checksums = RowChecksum.fromKey('7'.repeat(64));
    const base = { name: 'Alpha and Sons', balance: '10.0000', credit_limit: '9000.0000' };
    const variants = [base, { ...base, credit_limit: '9000.0001' }, { ...base, credit_limit: null }, { ...base, name: '' }, { ...base, balance: 10 }];
    expect(new Set(variants.map((row) => checksums.of(customer, row))).size).toBe(variants.length);
  });

  it('tells apart rows whose values hold the separators (values are length-prefixed)', () => {
    const user = { columns: [{ name: 'login' }, { name: 'name' }] } as unknown as Resource;
    const checksums = RowChecksum.fromKey('7'.repeat(64));
    const a = checksums.of(user, { login: 'X', name: 'Y\u001fname\u0001string:Z' });
    const b = checksums.of(user, { login: 'X\u001fname\u0001string:Y', name: 'Z' });
    expect(a).not.toBe(b);
    expect(canonicalPiece('login', 'X') + canonicalPiece('name', 'Y\u001fname\u0001string:Z')).not.toBe(
      canonicalPiece('login', 'X\u001fname\u0001string:Y') + canonicalPiece('name', 'Z'),
    );
  });

  it('derives the key from a secret with scrypt (slow to guess), not one SHA-256', async () => {
    const secret = 'ünïcødé secret, long enough to pass';
    const key = await hmacKey(secret);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).toBe(scryptSync(secret, 'tessera row checksum', 32, { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }).toString('hex'));
    expect(key).not.toBe(createHash('sha256').update('tessera row checksum\u0000').update(secret).digest('hex'));
  });
});
