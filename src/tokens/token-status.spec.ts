import { tokenStatus } from './token-status.js';

describe('tokenStatus', () => {
  const now = 1_000_000;
  it.each([
    [{ disabled: false, expiration: null }, 'active'],
    [{ disabled: false, expiration: now + 1 }, 'active'],
    [{ disabled: false, expiration: now }, 'expired'],
    [{ disabled: false, expiration: now - 1 }, 'expired'],
    [{ disabled: true, expiration: now + 1 }, 'disabled'],
    [{ disabled: true, expiration: now - 1 }, 'disabled'],
    [{ disabled: true, expiration: null }, 'disabled'],
  ])('%p is %s', (token, status) => {
    expect(tokenStatus(token, now)).toBe(status);
  });
});
