import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { isThenable, settleWithin } from './settle-within.js';

describe('settleWithin', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('answers a synchronous value without starting a timer', async () => {
    const timers = jest.spyOn(globalThis, 'setTimeout');
    await expect(settleWithin(1000, () => 42)).resolves.toEqual({ status: 'ok', value: 42 });
    expect(timers).not.toHaveBeenCalled();
  });

  it('answers a synchronous throw as an error, without a timer', async () => {
    const timers = jest.spyOn(globalThis, 'setTimeout');
    const thrown = new Error('boom');
    await expect(
      settleWithin(1000, () => {
        throw thrown;
      }),
    ).resolves.toEqual({ status: 'error', error: thrown });
    expect(timers).not.toHaveBeenCalled();
  });

  it('waits for a promise, and for no longer than the limit', async () => {
    await expect(settleWithin(1000, () => Promise.resolve('later'))).resolves.toEqual({ status: 'ok', value: 'later' });
    await expect(settleWithin(1000, () => Promise.reject(new Error('no')))).resolves.toEqual({ status: 'error', error: new Error('no') });
    await expect(settleWithin(20, () => new Promise(() => undefined))).resolves.toEqual({ status: 'timeout' });
  });

  it("answers an error when reading the answer's `then` throws", async () => {
    const hostile = {
      get then(): never {
        throw new Error('then getter');
      },
    };
    await expect(settleWithin(1000, () => hostile)).resolves.toEqual({ status: 'error', error: new Error('then getter') });
  });

  it('waits for any thenable, not only a native promise', async () => {
    const thenable = { then: (resolve: (value: string) => void) => setTimeout(() => resolve('from a thenable'), 5) };
    await expect(settleWithin(1000, () => thenable as unknown as PromiseLike<string>)).resolves.toEqual({
      status: 'ok',
      value: 'from a thenable',
    });
  });
});

describe('isThenable', () => {
  it('is true only for values with a then method', () => {
    expect(isThenable(Promise.resolve())).toBe(true);
    expect(isThenable({ then: () => undefined })).toBe(true);
    expect(isThenable(Object.assign(() => undefined, { then: () => undefined }))).toBe(true);
    for (const value of [undefined, null, 0, 'then', {}, { then: 1 }, () => undefined]) expect(isThenable(value)).toBe(false);
  });
});
