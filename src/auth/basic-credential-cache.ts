import { createHmac, randomBytes } from 'node:crypto';
import type { GlobalValues } from '../common/global-values.js';

/** Who a successful HTTP Basic check found: what the request's principal is made of. */
export interface BasicIdentity {
  userIdentifier: string;
  roleNames: readonly string[];
  globals: Readonly<GlobalValues>;
}

/** Enough for the clients of a busy service; beyond it the oldest entry goes first. */
const MAX_ENTRIES = 1000;

/**
 * Successful HTTP Basic checks of this process, for `ttlMs`: a client sending its credentials on
 * every request costs a bcrypt (and a throttle slot) once per `ttlMs`, not every time.
 *
 * An entry's key is an HMAC-SHA-256 of the user name and password under a secret made at random
 * when the process starts and never stored: neither the password nor a plain hash of it is kept,
 * and a key cannot be checked against guesses offline (nor by another process). Only successes
 * are kept, so a wrong password is never answered from here: it goes to the provider and counts
 * against the login throttle. `clear()` runs on every change to tokens or users this process
 * makes or hears of (a password change disables the user's tokens), so such a change takes effect
 * at once; a change the service cannot know of (in a custom provider's user store) within `ttlMs`.
 */
export class BasicCredentialCache {
  private readonly secret = randomBytes(32);
  private readonly entries = new Map<string, { identity: BasicIdentity; at: number }>();
  /** Counts `clear()` calls: a check that began before one must not be kept after it. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = MAX_ENTRIES,
  ) {}

  keyOf(username: string, password: string): string {
    // Lengths first, so no two (name, password) pairs make the same input.
    return createHmac('sha256', this.secret).update(`${username.length}:${username}:${password}`).digest('base64url');
  }

  get(key: string, now: number): BasicIdentity | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now - entry.at >= this.ttlMs || now < entry.at) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.identity;
  }

  /** Take before checking credentials; pass to `set`, which keeps the success only if nothing changed meanwhile. */
  version(): number {
    return this.generation;
  }

  set(key: string, identity: BasicIdentity, now: number, version: number): void {
    if (this.ttlMs <= 0 || version !== this.generation) return;
    this.entries.delete(key);
    this.entries.set(key, { identity, at: now });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
