import { hash, randomBytes } from 'node:crypto';

/** 256 random bits: well past the 128 the contract asks for, at 43 URL-safe characters. */
const TOKEN_BYTES = 32;

/** What a hand-made key may look like: long enough to resist guessing, and safe in a header and a URL. */
export const MANUAL_KEY_PATTERN = /^[A-Za-z0-9._~-]{16,200}$/;

/** A new token value from the CSPRNG, base64url (URL-safe, no padding). */
export function generateTokenValue(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/**
 * The only form in which a token is stored and looked up. A plain SHA-256 is enough: token
 * values are random and long, so there is nothing for a slow hash to protect.
 */
export function hashTokenValue(value: string): string {
  return hash('sha256', value, 'hex');
}
