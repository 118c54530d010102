import { apiErrorOf } from '../../test/support/api-error-of.js';
import { BasicCredentialCache } from './basic-credential-cache.js';
import { basicCredentialsOf } from './basic-credentials.js';

const who = { userIdentifier: 'demo', roleNames: ['Full access'], globals: {} };

describe('BasicCredentialCache', () => {
  it('keys by an HMAC under a per-process secret: never the password, nor a plain hash of it', () => {
    const cache = new BasicCredentialCache(60_000);
    const key = cache.keyOf('demo', 'Password1');
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(key).not.toContain('Password1');
    expect(cache.keyOf('demo', 'Password1')).toBe(key);
    expect(new BasicCredentialCache(60_000).keyOf('demo', 'Password1')).not.toBe(key);
    // The name and password cannot slide into each other.
    expect(cache.keyOf('demo:a', 'b')).not.toBe(cache.keyOf('demo', 'a:b'));
  });

  it('keeps a success for its TTL, then forgets it', () => {
    const cache = new BasicCredentialCache(1000);
    const key = cache.keyOf('demo', 'Password1');
    cache.set(key, who, 0, cache.version());
    expect(cache.get(key, 999)).toBe(who);
    expect(cache.get(key, 1000)).toBeUndefined();
    expect(cache.get(cache.keyOf('demo', 'wrong'), 10)).toBeUndefined();
  });

  it('is bounded: the oldest entry goes first', () => {
    const cache = new BasicCredentialCache(60_000, 3);
    for (const p of ['a', 'b', 'c', 'd']) cache.set(cache.keyOf('u', p), who, 0, cache.version());
    expect(cache.size).toBe(3);
    expect(cache.get(cache.keyOf('u', 'a'), 1)).toBeUndefined();
    expect(cache.get(cache.keyOf('u', 'd'), 1)).toBe(who);
  });

  it('forgets everything on clear(), and keeps no check that began before it', () => {
    const cache = new BasicCredentialCache(60_000);
    const key = cache.keyOf('demo', 'Password1');
    cache.set(key, who, 0, cache.version());
    const before = cache.version();
    cache.clear();
    expect(cache.get(key, 1)).toBeUndefined();
    cache.set(key, who, 1, before);
    expect(cache.get(key, 2)).toBeUndefined();
  });

  it('keeps nothing with a TTL of 0', () => {
    const cache = new BasicCredentialCache(0);
    const key = cache.keyOf('demo', 'Password1');
    cache.set(key, who, 0, cache.version());
    expect(cache.get(key, 0)).toBeUndefined();
  });
});

describe('basicCredentialsOf', () => {
  const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

  it('reads name and password (UTF-8; the password may hold colons)', () => {
    expect(basicCredentialsOf(basic('demo:Pass:word1'))).toEqual({ username: 'demo', password: 'Pass:word1' });
    expect(basicCredentialsOf(`basic  ${Buffer.from('jörg:pä').toString('base64')}`)).toEqual({ username: 'jörg', password: 'pä' });
  });

  it('is undefined without a header or with another scheme', () => {
    expect(basicCredentialsOf(undefined)).toBeUndefined();
    expect(basicCredentialsOf('CALiveAPICreator abc:1')).toBeUndefined();
  });

  it('refuses what cannot be read with 401 / 4013', () => {
    for (const header of ['Basic !!!', 'Basic ' + Buffer.from('nocolon').toString('base64'), basic(':nouser'), 'Basic /w==']) {
      expect(apiErrorOf(() => basicCredentialsOf(header)).errorCode).toBe(4013);
    }
  });
});
