import { TokenCache } from './token-cache.js';
import type { TokenRow } from './token-lookup.js';
import { ApiToken } from './api-token.entity.js';

const row = (id: number): TokenRow => ({ token: Object.assign(new ApiToken(), { id }), userInactive: false });

describe('TokenCache', () => {
  it('keeps a row for less than its lifetime', () => {
    const cache = new TokenCache(2000);
    cache.set('a', row(1), 1000, cache.version());
    expect(cache.get('a', 2999)?.token.id).toBe(1);
    expect(cache.get('a', 3000)).toBeUndefined();
    expect(cache.get('a', 1500)).toBeUndefined();
  });

  it('forgets everything on clear, and refuses a row read before the clear', () => {
    const cache = new TokenCache(2000);
    cache.set('a', row(1), 0, cache.version());
    const before = cache.version();
    cache.clear();
    expect(cache.get('a', 0)).toBeUndefined();
    cache.set('b', row(2), 0, before);
    expect(cache.get('b', 0)).toBeUndefined();
    cache.set('b', row(2), 0, cache.version());
    expect(cache.get('b', 0)?.token.id).toBe(2);
  });

  it('keeps nothing when its lifetime is 0', () => {
    const cache = new TokenCache(0);
    cache.set('a', row(1), 0, cache.version());
    expect(cache.get('a', 0)).toBeUndefined();
  });

  it('holds at most 10,000 rows, dropping the oldest first', () => {
    const cache = new TokenCache(60_000);
    for (let i = 0; i <= 10_000; i++) cache.set(`k${i}`, row(i), 0, cache.version());
    expect(cache.get('k0', 0)).toBeUndefined();
    expect(cache.get('k1', 0)?.token.id).toBe(1);
    expect(cache.get('k10000', 0)?.token.id).toBe(10_000);
  });
});
