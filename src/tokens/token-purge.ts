import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { Clock } from '../common/clock.js';
import { LOGGER } from '../observability/logger.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { Database } from '../database/database.js';
import { ApiToken } from './api-token.entity.js';

/** How often the purge runs after the one at boot. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/**
 * Rows deleted per statement: each batch is its own short statement (and, on SQLite, its own
 * turn at the write gate), so purging a huge backlog never holds a long lock.
 */
export const PURGE_BATCH = 500;
const DAY_MS = 86_400_000;
/** Expired longer ago than the retention, or disabled longer ago. */
const PURGEABLE = '((expiration IS NOT NULL AND expiration < :cutoff) OR (disabled_at IS NOT NULL AND disabled_at < :cutoff))';

/**
 * Deletes API tokens that expired, or were disabled, more than TOKEN_RETENTION_DAYS ago, so the
 * token table does not grow forever: at boot, then hourly (a timer that never keeps the process
 * alive, stopped on shutdown). Until then such a token still answers "expired" (4012) or
 * "disabled" (4011) and shows in the admin list; after, it is unknown (4011). Several
 * instances may sweep at once: each deletes by id what is still there, and a row another
 * instance deleted first is simply not counted.
 */
@Injectable()
export class TokenPurge implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly retentionMs: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.retentionMs = config.auth.tokenRetentionDays * DAY_MS;
  }

  onApplicationBootstrap(): void {
    if (this.retentionMs === 0) return;
    this.sweepInBackground();
    this.timer = setInterval(() => this.sweepInBackground(), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops the timer and lets a sweep in progress end after its current batch, before the database closes. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.whenIdle();
  }

  /** Resolves when no sweep of this process is running. */
  async whenIdle(): Promise<void> {
    await this.running;
  }

  /** One sweep: deletes every token past its retention, batch by batch; answers how many this call deleted. */
  async sweep(): Promise<number> {
    const cutoff = this.clock.now() - this.retentionMs;
    let purged = 0;
    while (!this.stopped) {
      const rows = await this.db.read(({ manager }) =>
        manager
          .getRepository(ApiToken)
          .createQueryBuilder('t')
          .select('t.id', 'id')
          .where(PURGEABLE, { cutoff })
          .orderBy('t.id')
          .limit(PURGE_BATCH)
          .getRawMany<{ id: number | string }>(),
      );
      if (rows.length === 0) break;
      const ids = rows.map((r) => Number(r.id));
      // The condition again: a row is only ever deleted while it is still past its retention.
      const result = await this.db.write(({ manager }) =>
        manager
          .getRepository(ApiToken)
          .createQueryBuilder()
          .delete()
          .where('id IN (:...ids)', { ids })
          .andWhere(PURGEABLE, { cutoff })
          .execute(),
      );
      purged += result.affected ?? 0;
      if (rows.length < PURGE_BATCH) break;
    }
    return purged;
  }

  private sweepInBackground(): void {
    if (this.running || this.stopped) return;
    this.running = this.sweep()
      .then((purged) => {
        if (purged > 0) this.logger.info({ purged, retentionDays: this.retentionMs / DAY_MS }, 'purged expired and disabled API tokens');
      })
      .catch((error: unknown) => this.logger.warn({ err: error }, 'the token purge failed; it runs again in an hour'))
      .finally(() => {
        this.running = undefined;
      });
  }
}
