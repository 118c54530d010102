import { availableParallelism } from 'node:os';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import bcrypt from 'bcrypt';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { ConcurrencyLimit } from './concurrency-limit.js';
import { fitsBcrypt } from './password-policy.js';

/**
 * bcrypt jobs at once: one per core. libuv's pool has 4 threads; on a 2-core machine four
 * hashes at once took the event loop's CPU (p99 loop delay 61 ms during a login storm)
 * without logging anyone in sooner, and left no pool thread for other work.
 */
const BCRYPT_JOBS = Math.max(1, Math.min(availableParallelism(), 3));

/**
 * bcrypt through its async API (it runs on libuv's pool, not the event loop), at the
 * configured cost, at most BCRYPT_JOBS at once. Shared by API users and admin accounts.
 */
@Injectable()
export class PasswordHasher implements OnModuleInit {
  private readonly cost: number;
  /** Compared against when the account does not exist, so that case takes as long as a wrong password. */
  private dummyHash = '';
  private readonly jobs = new ConcurrencyLimit(BCRYPT_JOBS);

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.cost = config.auth.bcryptCost;
  }

  async onModuleInit(): Promise<void> {
    this.dummyHash = await bcrypt.hash('tessera-dummy-password', this.cost);
  }

  hash(password: string): Promise<string> {
    return this.jobs.run(() => bcrypt.hash(password, this.cost));
  }

  /**
   * True when `password` matches `hash`. With no hash (unknown account) it still spends one
   * bcrypt comparison and answers false. A password bcrypt would cut (over 72 bytes, NUL)
   * never matches: it cannot have been set, and only its first 72 bytes would be compared.
   */
  async verify(password: string, hash: string | undefined): Promise<boolean> {
    const matches = await this.jobs.run(() => bcrypt.compare(password, hash ?? this.dummyHash));
    return matches && hash !== undefined && fitsBcrypt(password);
  }
}
