import { hash, scrypt } from 'node:crypto';
import { promisify } from 'node:util';
import type { Resource } from './resource-registry.js';
import type { CanonicalRow, CanonicalValue } from './value-codec.js';

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
   * one-shot hashes over precomputed pads, the same bytes as `createHmac('sha256', await hmacKey(secret))`.
   */
  static async fromSecret(secret: string): Promise<RowChecksum> {
    return new RowChecksum(await hmacKey(secret));
  }

  /** The checksums of an already derived key (64 hex digits): for the specs and the benchmark's baseline. */
  static fromKey(key: string): RowChecksum {
    return new RowChecksum(key);
  }

  of(resource: Resource, row: CanonicalRow): string {
    // One one-shot hash over the joined text: the same bytes as one update per piece, with far
    // fewer calls into native code.
    let text = this.innerPad;
    for (const column of resource.columns) text += canonicalPiece(column.name, row[column.name]);
    hash('sha256', text, 'buffer').copy(this.outer, BLOCK_BYTES);
    return `R:${hash('sha256', this.outer, 'hex').slice(0, 16)}`;
  }
}

/**
 * One column's piece of the canonical text. Each value is preceded by its length (in UTF-16
 * units, as JavaScript counts): column names come from entity metadata in a fixed order, so
 * the text parses back to exactly one row, whatever control characters a value holds (without
 * the length, a value containing the separators could shift text into the next column).
 */
export function canonicalPiece(name: string, value: CanonicalValue | undefined): string {
  if (value === null || value === undefined) return `${name}\u0000\u001f`;
  const text = String(value);
  return `${name}\u0001${typeof value}:${text.length}:${text}\u001f`;
}

/**
 * scrypt's cost: 16 MiB and some tens of milliseconds, once per boot. A secret a person chose
 * can then not be searched offline from the many row/checksum pairs any caller holds at the
 * rate one SHA-256 per guess would allow.
 */
const KDF = { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KDF_SALT = 'tessera row checksum';
const scryptAsync = promisify(scrypt) as (password: string, salt: string, keylen: number, options: typeof KDF) => Promise<Buffer>;

/**
 * The HMAC key of a checksum secret: 64 lowercase hex digits of scrypt. Applied to the
 * generated secret too (already 256 random bits), so there is one code path. Asynchronous: it
 * runs on libuv's pool, not the event loop. Exported for the specs and the benchmark's baseline.
 */
export async function hmacKey(secret: string): Promise<string> {
  return (await scryptAsync(secret, KDF_SALT, 32, KDF)).toString('hex');
}
