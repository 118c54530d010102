import { describe, expect, it } from '@jest/globals';
import { ConcurrencyLimit } from './concurrency-limit.js';

describe('ConcurrencyLimit', () => {
  it('runs at most `limit` tasks at once, in the order they came, and runs them all', async () => {
    const limit = new ConcurrencyLimit(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const task = (i: number) => async () => {
      started.push(i);
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      return i;
    };
    const results = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => limit.run(task(i))));
    expect(results).toEqual([0, 1, 2, 3, 4, 5]);
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('frees the slot of a task that fails', async () => {
    const limit = new ConcurrencyLimit(1);
    await expect(limit.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limit.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => new ConcurrencyLimit(0)).toThrow(/positive integer/);
    expect(() => new ConcurrencyLimit(1.5)).toThrow(/positive integer/);
  });
});
