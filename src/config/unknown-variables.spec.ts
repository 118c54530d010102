import { editDistance, likelyMeant, misspelledVariables } from './unknown-variables.js';

describe('editDistance', () => {
  it.each([
    ['DATABASE_URL', 'DATABASE_URL', 0],
    ['DATABSE_URL', 'DATABASE_URL', 1],
    ['DATABASE_URL', 'DATABAES_URL', 1],
    ['LOG_LEVLE', 'LOG_LEVEL', 1],
    ['HOME', 'HOST', 2],
    ['PWD', 'PORT', 3],
  ])('%s to %s: %i', (a, b, distance) => {
    expect(editDistance(a, b, 5)).toBe(distance);
  });

  it('stops at the limit', () => {
    expect(editDistance('KUBERNETES_SERVICE_HOST', 'HOST', 2)).toBe(3);
    expect(editDistance('ABCDEFGH', 'HGFEDCBA', 2)).toBe(3);
  });
});

describe('likelyMeant', () => {
  const known = ['PORT', 'HOST', 'DATABASE_URL', 'DB_POOL_SIZE', 'DB_LOCK_TIMEOUT_MS'];

  it('names the closest known names, all of them when tied', () => {
    expect(likelyMeant('DB_POOL_SIZ', known)).toEqual(['DB_POOL_SIZE']);
    expect(likelyMeant('HORT', known)).toEqual(['PORT', 'HOST']);
  });

  it('never judges a known name or one shorter than four characters', () => {
    expect(likelyMeant('PORT', known)).toEqual([]);
    expect(likelyMeant('POR', known)).toEqual([]);
    expect(likelyMeant('TZ', known)).toEqual([]);
  });

  it('reports in name order, one problem each', () => {
    expect(misspelledVariables({ PROT: '1', DATABSE_URL: 'x', SHELL: '/bin/sh' }, known)).toEqual([
      'DATABSE_URL: did you mean DATABASE_URL? (Tessera reads no DATABSE_URL; rename it, or unset it if it is not for Tessera)',
      'PROT: did you mean PORT? (Tessera reads no PROT; rename it, or unset it if it is not for Tessera)',
    ]);
  });
});
