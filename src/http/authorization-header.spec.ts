import { keyFromAuthorizationHeader, keyFromCredential } from './authorization-header.js';

describe('keyFromAuthorizationHeader', () => {
  it.each([
    ['CALiveAPICreator abc123:1', 'abc123'],
    ['calivEAPIcreator abc123:1', 'abc123'],
    ['Espresso abc123:1', 'abc123'],
    ['Bearer abc123', 'abc123'],
    ['bearer   abc123:7  ', 'abc123'],
    ['BEARER abc-_123:', 'abc-_123'],
  ])('%s -> %s', (header, key) => {
    expect(keyFromAuthorizationHeader(header)).toBe(key);
  });

  it.each([[undefined], [''], ['Bearer'], ['Basic dXNlcjpwYXNz'], ['Bearer a b'], ['Bearer :1'], [['Bearer a', 'Bearer b']]])(
    'finds no key in %p',
    (header) => {
      expect(keyFromAuthorizationHeader(header as string | undefined)).toBeUndefined();
    },
  );
});

describe('keyFromCredential', () => {
  it('keeps the first node only', () => {
    expect(keyFromCredential('key:1')).toBe('key');
    expect(keyFromCredential('key')).toBe('key');
    expect(keyFromCredential('key:1:2')).toBe('key');
    expect(keyFromCredential(':1')).toBeUndefined();
  });
});
