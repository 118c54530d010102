import { fitsBcrypt, passwordProblem } from './password-policy.js';

describe('passwordProblem', () => {
  it('accepts 8 to 72 bytes', () => {
    expect(passwordProblem('Password1')).toBeUndefined();
    expect(passwordProblem('x'.repeat(72))).toBeUndefined();
  });

  it('refuses fewer than 8 characters', () => {
    expect(passwordProblem('short')).toMatch(/too short/);
  });

  it('counts bytes, not characters, against the 72-byte limit', () => {
    expect(passwordProblem('x'.repeat(73))).toMatch(/too long/);
    expect(passwordProblem('é'.repeat(37))).toMatch(/too long/); // 74 bytes
    expect(passwordProblem('é'.repeat(36))).toBeUndefined(); // 72 bytes
  });

  it('refuses a NUL character', () => {
    expect(passwordProblem('Password\u00001')).toMatch(/NUL/);
  });
});

describe('fitsBcrypt', () => {
  it('is false past 72 bytes or with a NUL', () => {
    expect(fitsBcrypt('x'.repeat(72))).toBe(true);
    expect(fitsBcrypt('x'.repeat(73))).toBe(false);
    expect(fitsBcrypt('a\u0000b')).toBe(false);
  });
});
