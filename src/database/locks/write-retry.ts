import { setTimeout as sleep } from 'node:timers/promises';
import { concurrentConflict, isRetryableConflict } from '../errors/database-errors.js';

/** The first retry waits about this long; each later one up to twice as long as the one before. */
const FIRST_DELAY_MS = 4;
/** No single wait is longer, however many attempts came before. */
const MAX_DELAY_MS = 250;

export interface RetryPolicy {
  /** How long, from the first attempt's start, new attempts may still begin. 0: never retry. */
  budgetMs: number;
  /** [0, 1); injectable so the backoff can be tested. */
  random?: () => number;
  now?: () => number;
  wait?: (ms: number) => Promise<unknown>;
  /** Told of each conflict that is about to be retried (the log, metrics), before its wait. */
  onRetry?: (retry: number, error: unknown, delayMs: number) => void;
  /** Told when the budget is spent and the answer is 409 / 4093 (metrics). */
  onGiveUp?: () => void;
}

/**
 * The wait before retry number `retry` (1 for the first): exponential, capped, with "equal
 * jitter" (half fixed, half random), so that transactions that deadlocked with each other do
 * not collide again in lock step, and none retries at once.
 */
export function backoffDelay(retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, retry - 1));
  return ceiling / 2 + random() * (ceiling / 2);
}

/**
 * Runs `attempt` until it succeeds, fails with something that is not a retryable conflict, or
 * the time budget leaves no room for another wait and attempt. A conflict that outlasts the
 * budget answers 409 / 4093 with Retry-After (never 4090, which is a stale checksum). Each
 * attempt must be a whole transaction: the failed one has been rolled back before the next.
 */
export async function withConflictRetries<T>(attempt: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  const now = policy.now ?? Date.now;
  const wait = policy.wait ?? sleep;
  const deadline = now() + policy.budgetMs;
  for (let retry = 1; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isRetryableConflict(error)) throw error;
      const delay = backoffDelay(retry, policy.random);
      if (now() + delay >= deadline) {
        policy.onGiveUp?.();
        throw concurrentConflict();
      }
      policy.onRetry?.(retry, error, delay);
      await wait(delay);
    }
  }
}
