import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { Database, type DatabaseScope } from '../database/database.js';
import { AdminAuditEntry } from './admin-audit-entry.entity.js';

/** What an admin change reports for the audit trail, beside its result. */
export interface AuditedChange<T> {
  result: T;
  action: string;
  target: string;
  detail?: Record<string, unknown>;
}

/** The audit trail of the admin API. */
@Injectable()
export class AdminAuditService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * Runs one admin change and writes its audit entry in the same transaction: a change is
   * never made without its entry. Slow work (bcrypt) belongs before the call, not in `work`.
   */
  change<T>(username: string, work: (tx: DatabaseScope) => Promise<AuditedChange<T>>): Promise<T> {
    return this.db.transaction(async (tx) => {
      const { result, action, target, detail } = await work(tx);
      await tx.write(({ manager }) =>
        manager.getRepository(AdminAuditEntry).insert({ username, action, target, detail: detail === undefined ? null : JSON.stringify(detail), at: this.clock.now() }),
      );
      return result;
    });
  }

  /** Newest first. */
  list(offset: number, limit: number): Promise<[AdminAuditEntry[], number]> {
    return this.db.read(({ manager }) => manager.getRepository(AdminAuditEntry).findAndCount({ order: { id: 'DESC' }, skip: offset, take: limit }));
  }
}
