import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, type Repository } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { DatabaseGate } from '../database/database-gate.js';
import { LoginFailure, type LoginFailureScope } from '../database/login-failure.entity.js';
import { ApiError } from './api-error.js';
import { Clock } from './clock.js';
import { ErrorCode } from './error-codes.js';

/** Old failures are swept at most this often, not on every failed login. */
const SWEEP_INTERVAL_MS = 60_000;

/** Who is trying to log in: the account name (with its realm, e.g. `api:` or `admin:`) and the client address. */
export interface LoginAttempt {
  account: string;
  address: string;
}

/**
 * Counts failed logins per account and per client address in a sliding window, in the
 * database (so restarts and several instances share the count). Past a limit, logins are
 * refused with 429 / 4290 and Retry-After until enough failures leave the window, even with
 * the right password: the password is not even checked.
 */
@Injectable()
export class LoginThrottle {
  private readonly windowMs: number;
  private readonly limits: Record<LoginFailureScope, number>;
  private lastSweep = 0;

  constructor(
    @InjectRepository(LoginFailure) private readonly failures: Repository<LoginFailure>,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clock: Clock,
    private readonly gate: DatabaseGate,
  ) {
    this.windowMs = config.auth.loginFailureWindowSeconds * 1000;
    this.limits = { account: config.auth.loginMaxFailures, address: config.auth.loginMaxFailuresPerAddress };
  }

  /** Throws 429 / 4290 when either the account or the address is over its limit. */
  async check(attempt: LoginAttempt): Promise<void> {
    const now = this.clock.now();
    const recent = await this.recentFailures(attempt, now);
    let retryAt = 0;
    for (const scope of ['account', 'address'] as const) {
      const times = recent.filter((f) => f.scope === scope).map((f) => f.failedAt);
      const limit = this.limits[scope];
      // Logins open again when the oldest failure that keeps the count at the limit leaves the window.
      if (times.length >= limit) retryAt = Math.max(retryAt, times[times.length - limit]! + this.windowMs);
    }
    if (retryAt > now) {
      const seconds = Math.max(1, Math.ceil((retryAt - now) / 1000));
      throw new ApiError(ErrorCode.TOO_MANY_LOGINS, `Too many failed logins; try again in ${seconds} seconds.`, {
        'Retry-After': String(seconds),
      });
    }
  }

  async recordFailure(attempt: LoginAttempt): Promise<void> {
    const now = this.clock.now();
    await this.gate.write(async () => {
      await this.failures.insert([
        { scope: 'account', subject: subjectOf(attempt.account), failedAt: now },
        { scope: 'address', subject: subjectOf(attempt.address), failedAt: now },
      ]);
      if (now - this.lastSweep >= SWEEP_INTERVAL_MS) {
        this.lastSweep = now;
        await this.failures.createQueryBuilder().delete().where('failed_at <= :cutoff', { cutoff: now - this.windowMs }).execute();
      }
    });
  }

  /** A successful login forgets the account's failures (not the address's: one good account must not unlock spraying). */
  async recordSuccess(attempt: LoginAttempt): Promise<void> {
    await this.gate.write(() => this.failures.delete({ scope: 'account', subject: subjectOf(attempt.account) }));
  }

  private recentFailures(attempt: LoginAttempt, now: number): Promise<LoginFailure[]> {
    const query = this.failures
      .createQueryBuilder('f')
      .where('f.failedAt > :since', { since: now - this.windowMs })
      .andWhere(new Brackets((q) => {
        q.where('(f.scope = :account AND f.subject = :accountSubject)', { account: 'account', accountSubject: subjectOf(attempt.account) })
          .orWhere('(f.scope = :address AND f.subject = :addressSubject)', { address: 'address', addressSubject: subjectOf(attempt.address) });
      }))
      .orderBy('f.failedAt', 'ASC');
    return this.gate.read(() => query.getMany());
  }
}

/**
 * Account names are counted case-insensitively: MySQL's collation would do so anyway, and
 * an attacker must not get fresh attempts by changing the case of a login name.
 */
function subjectOf(value: string): string {
  return value.toLowerCase().slice(0, 200);
}
