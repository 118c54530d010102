import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { DatabaseGate } from '../database/database-gate.js';
import { LoginAttemptCounter, type LoginAttemptScope } from '../database/login-attempt.entity.js';
import { ApiError } from './api-error.js';
import { Clock } from './clock.js';
import { ErrorCode } from './error-codes.js';

/** Closed windows are swept at most this often, not on every login. */
const SWEEP_INTERVAL_MS = 60_000;

/** Who is trying to log in: the account name (with its realm, e.g. `api:` or `admin:`) and the client address. */
export interface LoginAttempt {
  account: string;
  address: string;
}

/** An attempt admitted by `reserve`: hand it to `release` when the password was right. */
export interface LoginReservation {
  readonly attempt: LoginAttempt;
  readonly reservedAt: number;
}

/**
 * Counts login attempts per account and per client address, in the database (so restarts and
 * several instances share the count). An attempt is counted BEFORE its password is checked,
 * by one conditional UPDATE that both counts and admits: of any number of concurrent guesses,
 * at most the limit get through to bcrypt, on every database and across instances. Past the
 * limit, logins are refused with 429 / 4290 and Retry-After until the window (opened by the
 * first attempt) has passed, even with the right password: the password is not even checked.
 * A successful login gives back what it counted: the account's count is forgotten (as after
 * any successful login), the address's count only loses this one attempt, so one good account
 * does not unlock spraying guesses at others.
 */
@Injectable()
export class LoginThrottle {
  private readonly windowMs: number;
  private readonly limits: Record<LoginAttemptScope, number>;
  private lastSweep = 0;

  constructor(
    @InjectRepository(LoginAttemptCounter) private readonly counters: Repository<LoginAttemptCounter>,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clock: Clock,
    private readonly gate: DatabaseGate,
  ) {
    this.windowMs = config.auth.loginFailureWindowSeconds * 1000;
    this.limits = { account: config.auth.loginMaxFailures, address: config.auth.loginMaxFailuresPerAddress };
  }

  /** Counts the attempt against its account and its address, or throws 429 / 4290 when either is at its limit. */
  async reserve(attempt: LoginAttempt): Promise<LoginReservation> {
    const now = this.clock.now();
    const account = subjectOf(attempt.account);
    const address = subjectOf(attempt.address);
    const admitted = await this.gate.write(async () => {
      if (!(await this.take('account', account, now))) return false;
      if (await this.take('address', address, now)) return true;
      // The address refused: give the account its attempt back, so only admitted attempts count.
      await this.giveBack('account', account, now);
      return false;
    });
    await this.sweepNow(now);
    if (!admitted) throw await this.refusal(account, address, now);
    return { attempt, reservedAt: now };
  }

  /** The password was right: forget the account's attempts, and give the address back this one. */
  async release(reservation: LoginReservation): Promise<void> {
    const { attempt, reservedAt } = reservation;
    await this.gate.write(async () => {
      await this.counters.delete({ scope: 'account', subject: subjectOf(attempt.account) });
      await this.giveBack('address', subjectOf(attempt.address), reservedAt);
    });
  }

  /** Admits one attempt on the subject's counter, creating the counter first if it has none. */
  private async take(scope: LoginAttemptScope, subject: string, now: number): Promise<boolean> {
    if (await this.increment(scope, subject, now)) return true;
    await this.counters
      .createQueryBuilder()
      .insert()
      .into(LoginAttemptCounter)
      .values({ scope, subject, windowStart: now, attempts: 0 })
      .orIgnore()
      .execute();
    return this.increment(scope, subject, now);
  }

  /**
   * The one statement that counts and admits: under READ COMMITTED the row lock makes
   * concurrent increments wait, and each re-checks the condition on the row as the one
   * before it left it. A closed window restarts at 1. `attempts` is assigned first:
   * MySQL evaluates assignments left to right, and its CASE must see the old window_start.
   */
  private async increment(scope: LoginAttemptScope, subject: string, now: number): Promise<boolean> {
    const result = await this.counters
      .createQueryBuilder()
      .update(LoginAttemptCounter)
      .set({
        attempts: () => 'CASE WHEN window_start <= :closedBefore THEN 1 ELSE attempts + 1 END',
        windowStart: () => 'CASE WHEN window_start <= :closedBefore THEN :now ELSE window_start END',
      })
      .where('scope = :scope AND subject = :subject')
      .andWhere('(attempts < :limit OR window_start <= :closedBefore)')
      .setParameters({ scope, subject, now, closedBefore: now - this.windowMs, limit: this.limits[scope] })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Takes one attempt off the counter, unless its window has restarted since `since` (it then holds others' attempts). */
  private async giveBack(scope: LoginAttemptScope, subject: string, since: number): Promise<void> {
    await this.counters
      .createQueryBuilder()
      .update(LoginAttemptCounter)
      .set({ attempts: () => 'attempts - 1' })
      .where('scope = :scope AND subject = :subject AND attempts > 0 AND window_start <= :since', { scope, subject, since })
      .execute();
  }

  /** 429 / 4290, Retry-After: when the window of the counter (or counters) at its limit closes. */
  private async refusal(account: string, address: string, now: number): Promise<ApiError> {
    const rows = await this.gate.read(() =>
      this.counters.find({ where: [{ scope: 'account', subject: account }, { scope: 'address', subject: address }] }),
    );
    let retryAt = now;
    for (const row of rows) {
      if (row.attempts >= this.limits[row.scope]) retryAt = Math.max(retryAt, row.windowStart + this.windowMs);
    }
    // A counter released meanwhile (a successful login) leaves nothing to wait for: try again at once.
    const seconds = Math.max(1, Math.ceil((retryAt - now) / 1000));
    return new ApiError(ErrorCode.TOO_MANY_LOGINS, `Too many failed logins; try again in ${seconds} seconds.`, {
      'Retry-After': String(seconds),
    });
  }

  private async sweepNow(now: number): Promise<void> {
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    await this.gate.write(() =>
      this.counters.createQueryBuilder().delete().where('window_start <= :cutoff', { cutoff: now - this.windowMs }).execute(),
    );
  }
}

/**
 * Account names are counted case-insensitively: MySQL's collation would do so anyway, and
 * an attacker must not get fresh attempts by changing the case of a login name.
 */
function subjectOf(value: string): string {
  return value.toLowerCase().slice(0, 200);
}
