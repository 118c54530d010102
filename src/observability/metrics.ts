import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';

/** Who logged in: an API user (`@authentication`) or an operator (the admin API). */
export type LoginKind = 'api' | 'admin';
/** How a login ended; `throttled` is the login throttle's 429, `queue_full` LOGIN_QUEUE_MAX's 503. */
export type LoginResult = 'succeeded' | 'failed' | 'throttled' | 'queue_full' | 'error';

/** A rule as metrics name it: its number in the project's rule list (as boot errors say "rule 3"), kind and resource. */
export interface RuleName {
  rule: string;
  kind: string;
  resource: string;
}

/** Counts one rule's executions and, for a constraint, its failures. */
export interface RuleCounter {
  ran(): void;
  failed(): void;
}

/** One request's end, as the HTTP layer saw it: `route` is the route's pattern, never the URL. */
export interface RequestRecorder {
  record(method: string, route: string, status: number, seconds: number): void;
}

/**
 * What Tessera counts. Every label value comes from a fixed set or from the code (route
 * patterns, rule numbers, resource names): never a key, a user name or a row value. With
 * METRICS_ENABLED unset this is `NO_METRICS`, whose methods do nothing, and the HTTP layer
 * installs no hook at all.
 */
export abstract class Metrics {
  abstract readonly enabled: boolean;
  abstract login(kind: LoginKind, result: LoginResult): void;
  abstract tokenIssued(origin: string): void;
  /** Looked up once per rule (at boot), so counting an execution is one increment. */
  abstract rule(name: RuleName): RuleCounter;
  /** A write transaction that conflicted with a concurrent one and is run again. */
  abstract writeRetried(): void;
  /** A write whose conflicts outlasted WRITE_RETRY_BUDGET_MS (409 / 4093). */
  abstract writeConflict(): void;
}

/** The counter of a rule nobody counts. */
export const NO_COUNT: RuleCounter = { ran: () => undefined, failed: () => undefined };

class NoMetrics extends Metrics {
  readonly enabled = false;
  login(): void {}
  tokenIssued(): void {}
  rule(): RuleCounter {
    return NO_COUNT;
  }
  writeRetried(): void {}
  writeConflict(): void {}
}

/** Metrics turned off: nothing is counted. */
export const NO_METRICS: Metrics = new NoMetrics();

/** How a login ended, from what it answered. */
export function loginResultOf(error: unknown): LoginResult {
  if (!(error instanceof ApiError)) return 'error';
  if (error.errorCode === ErrorCode.LOGIN_FAILED) return 'failed';
  if (error.errorCode === ErrorCode.TOO_MANY_LOGINS) return 'throttled';
  if (error.errorCode === ErrorCode.LOGIN_QUEUE_FULL) return 'queue_full';
  return 'error';
}

/** Runs a login and counts how it ended. */
export async function countedLogin<T>(metrics: Metrics, kind: LoginKind, login: () => Promise<T>): Promise<T> {
  try {
    const answer = await login();
    metrics.login(kind, 'succeeded');
    return answer;
  } catch (error) {
    metrics.login(kind, loginResultOf(error));
    throw error;
  }
}
