import { innodbLockWaitSeconds } from './mysql-lock-timeout.js';

describe('InnoDB lock wait timeout', () => {
  it('rounds DB_LOCK_TIMEOUT_MS up to whole seconds, at least one', () => {
    expect(innodbLockWaitSeconds(1)).toBe(1);
    expect(innodbLockWaitSeconds(200)).toBe(1);
    expect(innodbLockWaitSeconds(1000)).toBe(1);
    expect(innodbLockWaitSeconds(1001)).toBe(2);
    expect(innodbLockWaitSeconds(5000)).toBe(5);
  });
});
