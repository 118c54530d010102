import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, type EntityManager, type Repository } from 'typeorm';
import { Clock } from '../common/clock.js';
import { DatabaseGate } from '../database/database-gate.js';
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
    private readonly dataSource: DataSource,
    @InjectRepository(AdminAuditEntry) private readonly entries: Repository<AdminAuditEntry>,
    private readonly clock: Clock,
    private readonly gate: DatabaseGate,
  ) {}

  /**
   * Runs one admin change and writes its audit entry in the same transaction: a change is
   * never made without its entry. Slow work (bcrypt) belongs before the call, not in `work`.
   */
  change<T>(username: string, work: (manager: EntityManager) => Promise<AuditedChange<T>>): Promise<T> {
    // Through the gate: on SQLite the transaction shares the one connection with every request.
    return this.gate.write(() =>
      this.dataSource.transaction(async (manager) => {
        const { result, action, target, detail } = await work(manager);
        await manager.getRepository(AdminAuditEntry).insert({ username, action, target, detail: detail === undefined ? null : JSON.stringify(detail), at: this.clock.now() });
        return result;
      }),
    );
  }

  /** Newest first. */
  list(offset: number, limit: number): Promise<[AdminAuditEntry[], number]> {
    return this.gate.read(() => this.entries.findAndCount({ order: { id: 'DESC' }, skip: offset, take: limit }));
  }
}
