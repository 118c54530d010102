import { createHash, hash } from 'node:crypto';
import type { Resource } from './resource-registry.js';
import type { CanonicalRow } from './value-codec.js';

/** SHA-256's block size: an HMAC key of exactly this length is used as is. */
const BLOCK_BYTES = 64;

/**
 * Row checksums: `R:` + the first 16 hex digits of an HMAC-SHA-256, keyed with the
 * installation's checksum secret, over the row's canonical column values in column order.
 * Canonical values are the same on every database, so is the checksum. It covers every column,
 * hidden ones too (any change must change it), so without the key it must reveal nothing: a
 * plain hash over a public format let a caller recover hidden values by hashing guesses.
 *
 * Built once at boot (see `checksum-secret.ts`): every read computes one per row returned.
 */
export class RowChecksum {
  /** The inner pad as text: every byte is ASCII, so its UTF-8 encoding is the pad itself. */
  private readonly innerPad: string;
  /** Outer pad followed by room for the inner digest: one buffer, reused (hashing is synchronous). */
  private readonly outer = Buffer.alloc(BLOCK_BYTES + 32);

  private constructor(key: string) {
    if (key.length !== BLOCK_BYTES || !/^[0-9a-f]+$/.test(key)) throw new Error('the checksum key must be 64 hex digits');
    let inner = '';
    for (let i = 0; i < BLOCK_BYTES; i++) {
      const byte = key.charCodeAt(i);
      inner += String.fromCharCode(byte ^ 0x36);
      this.outer[i] = byte ^ 0x5c;
    }
    this.innerPad = inner;
  }

  /**
   * The checksums of one secret. The HMAC key is derived from it (64 hex digits, so any text
   * of any length makes a key of SHA-256's block size, in ASCII): the per-row work is then two
   * one-shot hashes over precomputed pads, the same bytes as `createHmac('sha256', hmacKey(secret))`.
   */
  static fromSecret(secret: string): RowChecksum {
    return new RowChecksum(hmacKey(secret));
  }

  of(resource: Resource, row: CanonicalRow): string {
    // One one-shot hash over the joined text: the same bytes as one update per piece, with far
    // fewer calls into native code.
    let text = this.innerPad;
    for (const column of resource.columns) {
      const value = row[column.name];
      text += `${column.name}${value === null || value === undefined ? '\u0000' : `\u0001${typeof value}:${String(value)}`}\u001f`;
    }
    hash('sha256', text, 'buffer').copy(this.outer, BLOCK_BYTES);
    return `R:${hash('sha256', this.outer, 'hex').slice(0, 16)}`;
  }
}

/** The HMAC key of a checksum secret: 64 lowercase hex digits. Exported for the specs and the benchmark's baseline. */
export function hmacKey(secret: string): string {
  return createHash('sha256').update('tessera row checksum\u0000').update(secret, 'utf8').digest('hex');
}
