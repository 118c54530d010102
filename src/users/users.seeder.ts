import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { PROJECT_DEFINITION } from '../common/api-settings.js';
import type { ProjectDefinition } from '../common/project-definition.js';
import { DatabaseGate } from '../database/database-gate.js';
import { TesseraMeta } from '../database/tessera-meta.entity.js';
import { UsersService } from './users.service.js';

/** Remembers in tessera_meta that seeding happened, so deleting every user later never brings the demo passwords back. */
const SEEDED = 'users_seeded_at';

/** Creates the project's `seedUsers` on the first start into an empty users table. */
@Injectable()
export class UsersSeeder implements OnApplicationBootstrap {
  constructor(
    private readonly users: UsersService,
    @InjectRepository(TesseraMeta) private readonly meta: Repository<TesseraMeta>,
    @Inject(PROJECT_DEFINITION) private readonly project: ProjectDefinition,
    private readonly gate: DatabaseGate,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const seeds = this.project.seedUsers ?? [];
    if (seeds.length === 0 || (await this.gate.read(() => this.meta.existsBy({ name: SEEDED }))) || (await this.users.count()) > 0) return;
    for (const { password, ...seed } of seeds) {
      await this.users.create({ ...seed, passwordHash: await this.users.hashNewPassword(password) });
    }
    await this.gate.write(() => this.meta.insert({ name: SEEDED, value: new Date().toISOString() }));
  }
}
