import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import { backoffDelay, withConflictRetries } from './write-retry.js';

const deadlock = (): Error => Object.assign(new Error('Deadlock found'), { driverError: { code: 'ER_LOCK_DEADLOCK', errno: 1213 } });

/** A clock that only moves when the retry loop waits. */
function fakeTime(): { now: () => number; wait: (ms: number) => Promise<void>; waits: number[] } {
  let t = 0;
  const waits: number[] = [];
  return {
    now: () => t,
    wait: async (ms) => {
      waits.push(ms);
      t += ms;
    },
    waits,
  };
}

describe('write retries', () => {
  it('backs off exponentially with jitter, between half and all of a capped ceiling', () => {
    expect(backoffDelay(1, () => 0)).toBe(2);
    expect(backoffDelay(1, () => 0.999)).toBeCloseTo(4, 1);
    expect(backoffDelay(3, () => 0)).toBe(8);
    expect(backoffDelay(3, () => 0.5)).toBe(12);
    expect(backoffDelay(30, () => 0)).toBe(125);
    expect(backoffDelay(30, () => 0.999)).toBeLessThan(250);
    const spread = new Set(Array.from({ length: 20 }, () => backoffDelay(4)));
    expect(spread.size).toBeGreaterThan(1);
  });

  it('tells onRetry before each retry and onGiveUp once when the budget is spent (the metrics hooks)', async () => {
    const time = fakeTime();
    const told: string[] = [];
    const hooks = { onRetry: () => told.push('retry'), onGiveUp: () => told.push('give up') };
    let calls = 0;
    const attempt = async (): Promise<string> => {
      calls += 1;
      if (calls < 3) throw deadlock();
      return 'done';
    };
    await expect(withConflictRetries(attempt, { budgetMs: 1000, random: () => 0, ...time, ...hooks })).resolves.toBe('done');
    expect(told).toEqual(['retry', 'retry']);
    told.length = 0;
    const always = async (): Promise<string> => Promise.reject(deadlock());
    await expect(withConflictRetries(always, { budgetMs: 20, random: () => 0, ...time, ...hooks })).rejects.toMatchObject({
      errorCode: ErrorCode.CONCURRENT_CONFLICT,
    });
    expect(told.at(-1)).toBe('give up');
    expect(told.filter((t) => t === 'give up')).toHaveLength(1);
    expect(told.length).toBeGreaterThan(1);
  });

  it('runs the attempt again after a deadlock, and answers its result', async () => {
    const time = fakeTime();
    let calls = 0;
    const result = await withConflictRetries(
      async () => {
        calls += 1;
        if (calls < 3) throw deadlock();
        return 'done';
      },
      { budgetMs: 1000, ...time, random: () => 0 },
    );
    expect(result).toBe('done');
    expect(calls).toBe(3);
    expect(time.waits).toEqual([2, 4]);
  });

  it('tells onRetry of each retry, with its number and wait, and not of the attempt that succeeds', async () => {
    const time = fakeTime();
    const told: Array<[number, number]> = [];
    let calls = 0;
    await withConflictRetries(
      async () => {
        calls += 1;
        if (calls < 3) throw deadlock();
      },
      { budgetMs: 1000, ...time, random: () => 0, onRetry: (retry, _error, delayMs) => told.push([retry, delayMs]) },
    );
    expect(told).toEqual([
      [1, 2],
      [2, 4],
    ]);
  });

  it('answers 409 / 4093 with Retry-After once the budget leaves no room for another attempt', async () => {
    const time = fakeTime();
    let calls = 0;
    const error = await withConflictRetries(
      async () => {
        calls += 1;
        throw deadlock();
      },
      { budgetMs: 100, ...time, random: () => 0.5 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).errorCode).toBe(4093);
    expect((error as ApiError).statusCode).toBe(409);
    expect((error as ApiError).headers['Retry-After']).toBe('1');
    expect(time.now()).toBeLessThanOrEqual(100);
    expect(calls).toBeGreaterThan(3);
  });

  it('never retries with a budget of 0, and never retries other errors', async () => {
    let calls = 0;
    const conflict = await withConflictRetries(
      async () => {
        calls += 1;
        throw deadlock();
      },
      { budgetMs: 0 },
    ).catch((e: unknown) => e);
    expect((conflict as ApiError).errorCode).toBe(4093);
    expect(calls).toBe(1);
    const stale = new ApiError(ErrorCode.CHECKSUM_MISMATCH, 'stale checksum');
    calls = 0;
    await expect(
      withConflictRetries(
        async () => {
          calls += 1;
          throw stale;
        },
        { budgetMs: 1000 },
      ),
    ).rejects.toBe(stale);
    expect(calls).toBe(1);
  });
});
