import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { Database } from '../database/database.js';
import { LoginAttemptCounter, type LoginAttemptScope } from '../database/login-attempt.entity.js';
import { ApiError } from '../common/api-error.js';
import { Clock } from '../common/clock.js';
import { ErrorCode } from '../common/error-codes.js';

/** Closed windows are swept at most this often, not on every login. */
const SWEEP_INTERVAL_MS = 60_000;
/** Longest a login waits for the other logins of its account (or address) in progress to finish. */
const WAIT_LIMIT_MS = 10_000;
/** While waiting, how often it looks again: logins finishing on other instances wake nobody here. */
const POLL_MS = 250;

const SCOPES: readonly LoginAttemptScope[] = ['account', 'address'];

/** Who is trying to log in: the account name (with its realm, e.g. `api:` or `admin:`) and the client address. */
export interface LoginAttempt {
  account: string;
  address: string;
}

/**
 * How an admitted attempt ended: the password was right, wrong, or never judged (the provider
 * timed out, the database failed): that tells the client nothing, so it is not a failure.
 */
export type LoginOutcome = 'succeeded' | 'failed' | 'abandoned';

/** An attempt admitted by `reserve`: hand it to `finish` once its password has been checked. */
export interface LoginReservation {
  readonly subjects: Readonly<Record<LoginAttemptScope, string>>;
  finished: boolean;
}

type Verdict = { kind: 'full'; retryAt: number } | { kind: 'busy'; key: string } | { kind: 'open' };

/**
 * Limits login attempts per account and per client address, in the database (so restarts and
 * several instances share the count). Every attempt is counted BEFORE its password is
 * checked, by one conditional UPDATE that both counts and admits: at most the limit, failed
 * logins plus those being checked now, get through to bcrypt, however many arrive at once,
 * on every database and across instances. An attempt over the limit only because others are
 * being checked waits for them (up to WAIT_LIMIT_MS), so many concurrent logins of one
 * account with the right password all get in; once the window holds the limit of failures,
 * logins are refused with 429 / 4290 and Retry-After until the window (opened by its first
 * attempt) has passed, even with the right password: it is not even checked. A success
 * forgets the account's failures (as after any successful login) but not the address's, so
 * one good account does not unlock spraying guesses at others.
 */
@Injectable()
export class LoginThrottle {
  private readonly windowMs: number;
  private readonly limits: Record<LoginAttemptScope, number>;
  /** Logins of this process waiting for a turn, by `scope:subject`, first come first woken. */
  private readonly waiting = new Map<string, Array<() => void>>();
  private lastSweep = 0;

  constructor(
    private readonly db: Database,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.windowMs = config.auth.loginFailureWindowSeconds * 1000;
    this.limits = { account: config.auth.loginMaxFailures, address: config.auth.loginMaxFailuresPerAddress };
  }

  /** Counts the attempt against its account and its address, or throws 429 / 4290. */
  async reserve(attempt: LoginAttempt): Promise<LoginReservation> {
    const subjects = { account: subjectOf(attempt.account), address: subjectOf(attempt.address) };
    const giveUpAt = Date.now() + WAIT_LIMIT_MS;
    for (;;) {
      const now = this.clock.now();
      const admitted = await this.db.write(async ({ manager }) => {
        if (!(await this.take(manager, 'account', subjects.account, now))) return false;
        if (await this.take(manager, 'address', subjects.address, now)) return true;
        // The address refused: give the account its attempt back, so only admitted attempts count.
        await this.settle(manager, 'account', subjects.account, 'gave-back');
        return false;
      });
      await this.sweepNow(now);
      if (admitted) return { subjects, finished: false };
      const verdict = await this.verdict(subjects, now);
      if (verdict.kind === 'full') {
        // Whoever waits behind this one would hear the same: pass the word on.
        for (const scope of SCOPES) this.wakeOne(keyOf(scope, subjects[scope]));
        throw tooMany(verdict.retryAt, now);
      }
      if (Date.now() >= giveUpAt) throw tooMany(now, now);
      if (verdict.kind === 'busy') await this.waitForTurn(verdict.key, giveUpAt);
    }
  }

  /** Ends the attempt: a success forgets the account's failures, a failure counts for both, an abandoned one for neither. */
  async finish(reservation: LoginReservation, outcome: LoginOutcome): Promise<void> {
    if (reservation.finished) return;
    reservation.finished = true;
    const { subjects } = reservation;
    try {
      await this.db.write(async ({ manager }) => {
        await this.settle(manager, 'account', subjects.account, outcome === 'abandoned' ? 'gave-back' : outcome);
        await this.settle(manager, 'address', subjects.address, outcome === 'failed' ? 'failed' : 'gave-back');
      });
    } finally {
      for (const scope of SCOPES) this.wakeOne(keyOf(scope, subjects[scope]));
    }
  }

  /** Admits one attempt on the subject's counter, creating the counter first if it has none. */
  private async take(manager: EntityManager, scope: LoginAttemptScope, subject: string, now: number): Promise<boolean> {
    if (await this.increment(manager, scope, subject, now)) return true;
    await counters(manager)
      .createQueryBuilder()
      .insert()
      .into(LoginAttemptCounter)
      .values({ scope, subject, windowStart: now, failures: 0, pending: 0 })
      .orIgnore()
      .execute();
    return this.increment(manager, scope, subject, now);
  }

  /**
   * The one statement that counts and admits: under READ COMMITTED the row lock makes
   * concurrent increments wait, and each re-checks the condition on the row as the one
   * before it left it. A closed window restarts with this attempt. Assignments are in this
   * order on purpose: MySQL evaluates them left to right, and the CASEs must see the old
   * window_start.
   */
  private async increment(manager: EntityManager, scope: LoginAttemptScope, subject: string, now: number): Promise<boolean> {
    const result = await counters(manager)
      .createQueryBuilder()
      .update(LoginAttemptCounter)
      .set({
        pending: () => 'CASE WHEN window_start <= :closedBefore THEN 1 ELSE pending + 1 END',
        failures: () => 'CASE WHEN window_start <= :closedBefore THEN 0 ELSE failures END',
        windowStart: () => 'CASE WHEN window_start <= :closedBefore THEN :now ELSE window_start END',
      })
      .where('scope = :scope AND subject = :subject')
      .andWhere('(failures + pending < :limit OR window_start <= :closedBefore)')
      .setParameters({ scope, subject, now, closedBefore: now - this.windowMs, limit: this.limits[scope] })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Ends one pending attempt: counted as a failure, forgetting the failures (a success on the account), or given back. */
  private async settle(
    manager: EntityManager,
    scope: LoginAttemptScope,
    subject: string,
    outcome: 'failed' | 'succeeded' | 'gave-back',
  ): Promise<void> {
    const failures = { failed: 'failures + 1', succeeded: '0', 'gave-back': 'failures' }[outcome];
    await counters(manager)
      .createQueryBuilder()
      .update(LoginAttemptCounter)
      .set({ failures: () => failures, pending: () => 'CASE WHEN pending > 0 THEN pending - 1 ELSE 0 END' })
      .where('scope = :scope AND subject = :subject', { scope, subject })
      .execute();
  }

  /** Why `take` refused: failures at the limit (refuse until the window closes), logins in progress (wait), or neither any more. */
  private async verdict(subjects: Record<LoginAttemptScope, string>, now: number): Promise<Verdict> {
    const rows = await this.db.read(({ manager }) =>
      counters(manager).find({ where: SCOPES.map((scope) => ({ scope, subject: subjects[scope] })) }),
    );
    let retryAt = 0;
    let busy: string | undefined;
    for (const row of rows) {
      const closesAt = row.windowStart + this.windowMs;
      if (closesAt <= now) continue;
      const limit = this.limits[row.scope];
      if (row.failures >= limit) retryAt = Math.max(retryAt, closesAt);
      else if (row.failures + row.pending >= limit) busy ??= keyOf(row.scope, row.subject);
    }
    if (retryAt > 0) return { kind: 'full', retryAt };
    return busy === undefined ? { kind: 'open' } : { kind: 'busy', key: busy };
  }

  /** Until a login of this process on `key` finishes, POLL_MS passes, or the wait's limit is reached. */
  private waitForTurn(key: string, giveUpAt: number): Promise<void> {
    return new Promise((resolve) => {
      const queue = this.waiting.get(key) ?? [];
      this.waiting.set(key, queue);
      const wake = () => {
        clearTimeout(timer);
        const at = queue.indexOf(wake);
        if (at >= 0) queue.splice(at, 1);
        if (queue.length === 0 && this.waiting.get(key) === queue) this.waiting.delete(key);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(1, Math.min(POLL_MS, giveUpAt - Date.now())));
      queue.push(wake);
    });
  }

  private wakeOne(key: string): void {
    this.waiting.get(key)?.[0]?.();
  }

  private async sweepNow(now: number): Promise<void> {
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    // A closed window with an attempt still in progress stays until that attempt is counted,
    // unless it is so old that the attempt must have been lost with its process.
    await this.db.write(({ manager }) =>
      counters(manager)
        .createQueryBuilder()
        .delete()
        .where('window_start <= :cutoff AND (pending = 0 OR window_start <= :lost)', {
          cutoff: now - this.windowMs,
          lost: now - 2 * this.windowMs,
        })
        .execute(),
    );
  }
}

const counters = (manager: EntityManager) => manager.getRepository(LoginAttemptCounter);

function keyOf(scope: LoginAttemptScope, subject: string): string {
  return `${scope}:${subject}`;
}

function tooMany(retryAt: number, now: number): ApiError {
  const seconds = Math.max(1, Math.ceil((retryAt - now) / 1000));
  return new ApiError(ErrorCode.TOO_MANY_LOGINS, `Too many failed logins; try again in ${seconds} seconds.`, {
    'Retry-After': String(seconds),
  });
}

/**
 * Account names are counted case-insensitively: MySQL's collation would do so anyway, and
 * an attacker must not get fresh attempts by changing the case of a login name.
 */
function subjectOf(value: string): string {
  return value.toLowerCase().slice(0, 200);
}
