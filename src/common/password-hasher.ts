import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import bcrypt from 'bcrypt';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { fitsBcrypt } from './password-policy.js';

/**
 * bcrypt through its async API (it runs on libuv's pool, not the event loop), at the
 * configured cost. Shared by API users and admin accounts.
 */
@Injectable()
export class PasswordHasher implements OnModuleInit {
  private readonly cost: number;
  /** Compared against when the account does not exist, so that case takes as long as a wrong password. */
  private dummyHash = '';

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.cost = config.auth.bcryptCost;
  }

  async onModuleInit(): Promise<void> {
    this.dummyHash = await bcrypt.hash('tessera-dummy-password', this.cost);
  }

  hash(password: string): Promise<string> {
    return bcrypt.hash(password, this.cost);
  }

  /**
   * True when `password` matches `hash`. With no hash (unknown account) it still spends one
   * bcrypt comparison and answers false. A password bcrypt would cut (over 72 bytes, NUL)
   * never matches: it cannot have been set, and only its first 72 bytes would be compared.
   */
  async verify(password: string, hash: string | undefined): Promise<boolean> {
    const matches = await bcrypt.compare(password, hash ?? this.dummyHash);
    return matches && hash !== undefined && fitsBcrypt(password);
  }
}
