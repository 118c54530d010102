import type { TokenRow } from './token-lookup.js';

/** Enough for every active client of a busy service; beyond it the oldest entries go first. */
const MAX_ENTRIES = 10_000;

/**
 * Token rows this process read recently, by key hash: the token check of a busy client's
 * requests costs a map lookup instead of a query. Only found tokens are kept (a flood of
 * made-up keys cannot fill it). The status is still judged on every request (expiration
 * against the clock); `clear()` is called on every change to tokens or users this process
 * makes, so such changes take effect at once, and an entry lives at most `ttlMs`, which
 * bounds how long a change made by another instance sharing the database goes unseen.
 */
export class TokenCache {
  private readonly entries = new Map<string, { row: TokenRow; readAt: number }>();
  /** Counts `clear()` calls: a row read before a change must not be cached after it. */
  private generation = 0;

  constructor(private readonly ttlMs: number) {}

  get(keyHash: string, now: number): TokenRow | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (now - entry.readAt >= this.ttlMs || now < entry.readAt) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return entry.row;
  }

  /** Take before reading a row; pass to `set`, which keeps the row only if nothing changed meanwhile. */
  version(): number {
    return this.generation;
  }

  set(keyHash: string, row: TokenRow, now: number, version: number): void {
    if (this.ttlMs <= 0 || version !== this.generation) return;
    this.entries.delete(keyHash);
    this.entries.set(keyHash, { row, readAt: now });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
