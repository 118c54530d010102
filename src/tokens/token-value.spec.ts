import { generateTokenValue, hashTokenValue, MANUAL_KEY_PATTERN } from './token-value.js';

describe('generateTokenValue', () => {
  it('makes URL-safe values of at least 128 bits that do not repeat', () => {
    const values = new Set(Array.from({ length: 1000 }, () => generateTokenValue()));
    expect(values.size).toBe(1000);
    for (const value of values) {
      expect(value).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(value, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    }
  });
});

describe('hashTokenValue', () => {
  it('is the hex SHA-256 of the value, never the value itself', () => {
    const value = generateTokenValue();
    const hash = hashTokenValue(value);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(value);
    expect(hashTokenValue(value)).toBe(hash);
    expect(hashTokenValue('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('MANUAL_KEY_PATTERN', () => {
  it.each([
    ['public-demo-key-01', true],
    ['short-key', false],
    ['has space in the key!', false],
    ['a'.repeat(201), false],
  ])('%s -> %s', (key, ok) => expect(MANUAL_KEY_PATTERN.test(key)).toBe(ok));
});
