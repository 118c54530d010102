import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Database } from '../database/database.js';
import { TesseraMeta } from '../database/tessera-meta.entity.js';
import { SEED_USERS, type SeedUser } from './seed-user.js';
import { UsersService } from './users.service.js';
import { PasswordHasher } from '../login/password-hasher.js';

/** Remembers in tessera_meta that seeding happened, so deleting every user later never brings the demo passwords back. */
const SEEDED = 'users_seeded_at';

/** Creates the project's `seedUsers` on the first start into an empty users table. */
@Injectable()
export class UsersSeeder implements OnApplicationBootstrap {
  constructor(
    private readonly users: UsersService,
    @Inject(SEED_USERS) private readonly seedUsers: readonly SeedUser[],
    private readonly db: Database,
    private readonly hasher: PasswordHasher,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const seeds = this.seedUsers;
    if (
      seeds.length === 0 ||
      (await this.db.read(({ manager }) => manager.getRepository(TesseraMeta).existsBy({ name: SEEDED }))) ||
      (await this.users.count()) > 0
    )
      return;
    for (const { password, ...seed } of seeds) {
      await this.users.create({ ...seed, passwordHash: await this.hasher.hashNewPassword(password) });
    }
    await this.db.write(({ manager }) => manager.getRepository(TesseraMeta).insert({ name: SEEDED, value: new Date().toISOString() }));
  }
}
