import { availableParallelism } from 'node:os';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import bcrypt from 'bcrypt';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { AdmissionLimit } from './admission-limit.js';
import { ApiError } from '../common/api-error.js';
import { ConcurrencyLimit } from './concurrency-limit.js';
import { ErrorCode } from '../common/error-codes.js';
import { fitsBcrypt, passwordProblem } from './password-policy.js';

/**
 * bcrypt jobs at once: one per core. libuv's pool has 4 threads; on a 2-core machine four
 * hashes at once took the event loop's CPU (p99 loop delay 61 ms during a login storm)
 * without logging anyone in sooner, and left no pool thread for other work.
 */
const BCRYPT_JOBS = Math.max(1, Math.min(availableParallelism(), 3));

/** Weight of the newest bcrypt job in the running average its duration is estimated by. */
const AVERAGE_WEIGHT = 0.2;

/**
 * bcrypt through its async API (it runs on libuv's pool, not the event loop), at the
 * configured cost, at most BCRYPT_JOBS at once. Shared by API users and admin accounts.
 * Logins (and password changes) enter through `admitLogin`, which bounds how many are in
 * progress: without it 150 concurrent logins queued for bcrypt and delayed everyone else's
 * by half a minute.
 */
@Injectable()
export class PasswordHasher implements OnModuleInit {
  private readonly cost: number;
  /** Compared against when the account does not exist, so that case takes as long as a wrong password. */
  private dummyHash = '';
  private readonly jobs = new ConcurrencyLimit(BCRYPT_JOBS);
  private readonly logins: AdmissionLimit;
  /** How long one bcrypt job takes here, in ms: measured at boot, then a running average. */
  private jobMs = 100;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.cost = config.auth.bcryptCost;
    this.logins = new AdmissionLimit(config.auth.loginQueueMax);
  }

  async onModuleInit(): Promise<void> {
    const started = performance.now();
    this.dummyHash = await bcrypt.hash('tessera-dummy-password', this.cost);
    this.jobMs = performance.now() - started;
  }

  /**
   * Runs a login (or a password change) when fewer than LOGIN_QUEUE_MAX are in progress;
   * otherwise 503 / 5032 at once, before any of its work, with Retry-After: the time the
   * logins in progress need to get through bcrypt.
   */
  admitLogin<T>(login: () => Promise<T>): Promise<T> {
    return this.logins.run(login, () => {
      const seconds = Math.max(1, Math.ceil((this.logins.size * this.jobMs) / BCRYPT_JOBS / 1000));
      return new ApiError(ErrorCode.LOGIN_QUEUE_FULL, `Too many logins in progress; try again in ${seconds} seconds.`, {
        'Retry-After': String(seconds),
      });
    });
  }

  /**
   * A password an operator sets (a new user or admin account, a reset): checked against the
   * policy (400 / 4000) and hashed, admitted like a login (503 / 5032 when too many are in
   * progress). Before any transaction: the slow hash must not hold one open.
   */
  async hashNewPassword(password: string): Promise<string> {
    const problem = passwordProblem(password);
    if (problem) throw new ApiError(ErrorCode.BAD_REQUEST, problem);
    return this.admitLogin(() => this.hash(password));
  }

  /**
   * The longest a login admitted now may wait for bcrypt and spend in it: behind at most
   * LOGIN_QUEUE_MAX - 1 others, BCRYPT_JOBS at a time, each taking the hash time measured here.
   */
  longestCheckMs(): number {
    return Math.ceil(this.logins.max / BCRYPT_JOBS) * this.jobMs;
  }

  hash(password: string): Promise<string> {
    return this.jobs.run(() => this.timed(bcrypt.hash(password, this.cost)));
  }

  /**
   * True when `password` matches `hash`. With no hash (unknown account) it still spends one
   * bcrypt comparison and answers false. A password bcrypt would cut (over 72 bytes, NUL)
   * never matches: it cannot have been set, and only its first 72 bytes would be compared.
   */
  async verify(password: string, hash: string | undefined): Promise<boolean> {
    const matches = await this.jobs.run(() => this.timed(bcrypt.compare(password, hash ?? this.dummyHash)));
    return matches && hash !== undefined && fitsBcrypt(password);
  }

  private async timed<T>(job: Promise<T>): Promise<T> {
    const started = performance.now();
    const result = await job;
    this.jobMs += AVERAGE_WEIGHT * (performance.now() - started - this.jobMs);
    return result;
  }
}
