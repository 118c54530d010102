import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '../observability/logger.js';
import { Database } from '../database/database.js';
import { TesseraMeta } from '../database/schema/tessera-meta.entity.js';
import { SEED_USERS, type SeedUser } from './seed-user.js';
import { UsersService, type NewUser } from './users.service.js';
import { PasswordHasher } from '../login/password-hasher.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { refusePublishedPasswords } from './published-passwords.js';

/** Remembers in tessera_meta that seeding happened, so deleting every user later never brings the demo passwords back. */
const SEEDED = 'users_seeded_at';

/**
 * Creates the project's `seedUsers` on the first start into an empty users table, in one
 * transaction; under the boot lock, so instances booting at once create them once.
 */
@Injectable()
export class UsersSeeder implements OnApplicationBootstrap {
  constructor(
    private readonly users: UsersService,
    @Inject(SEED_USERS) private readonly seedUsers: readonly SeedUser[],
    private readonly db: Database,
    private readonly hasher: PasswordHasher,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.seedUsers.length === 0) return;
    await this.db.bootStep('seed users', () => this.seedUnlessDone(), this.logger);
  }

  /**
   * Throws `PublishedPasswordsError` when seed users still have their published passwords and the bind is
   * public (see `refusePublishedPasswords`). main.ts asks just before it listens, once the boot is otherwise
   * done: a first admin's generated password made in the same boot is then still printed, not lost with it.
   */
  refusePublishedPasswords(): Promise<void> {
    return refusePublishedPasswords(this.config, this.seedUsers, this.users, this.hasher);
  }

  private async seedUnlessDone(): Promise<void> {
    const seeds = this.seedUsers;
    if (
      (await this.db.read(({ manager }) => manager.getRepository(TesseraMeta).existsBy({ name: SEEDED }))) ||
      (await this.users.count()) > 0
    )
      return;
    // The users and the mark commit together: a process killed part-way (kill -9, the OOM
    // killer) leaves all of them or none, never some users that stop the next start from
    // creating the rest. The hashes are made first: slow work stays outside a transaction.
    const users: NewUser[] = [];
    for (const { password, ...seed } of seeds) users.push({ ...seed, passwordHash: await this.hasher.hashNewPassword(password) });
    await this.db.transaction(async (tx) => {
      for (const user of users) await this.users.create(user, tx);
      await tx.write(({ manager }) => manager.getRepository(TesseraMeta).insert({ name: SEEDED, value: new Date().toISOString() }));
    });
  }
}
