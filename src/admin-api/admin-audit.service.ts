import { Injectable } from '@nestjs/common';
import type { AuditedChange, AuditTrail } from './audit-trail.js';
import { Clock } from '../common/clock.js';
import { Database, type DatabaseScope } from '../database/database.js';
import { AdminAuditEntry } from './admin-audit-entry.entity.js';

/** The audit trail of the admin API (offered to other modules as `AUDIT_TRAIL`). */
@Injectable()
export class AdminAuditService implements AuditTrail {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  change<T>(username: string, work: (tx: DatabaseScope) => Promise<AuditedChange<T>>): Promise<T> {
    return this.db.transaction(async (tx) => {
      const { result, action, target, detail } = await work(tx);
      await tx.write(({ manager }) =>
        manager
          .getRepository(AdminAuditEntry)
          .insert({ username, action, target, detail: detail === undefined ? null : JSON.stringify(detail), at: this.clock.now() }),
      );
      return result;
    });
  }

  /** Newest first. */
  list(offset: number, limit: number): Promise<[AdminAuditEntry[], number]> {
    return this.db.read(({ manager }) =>
      manager.getRepository(AdminAuditEntry).findAndCount({ order: { id: 'DESC' }, skip: offset, take: limit }),
    );
  }
}
