import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { DatabaseGate } from '../database/database-gate.js';
import { beginWriteSession } from '../database/write-session.js';
import { ResourceRegistry } from '../data/resource-registry.js';
import { dialectOf, insertReturnsRow } from '../data/sql-dialect.js';
import { RowStore } from '../data/row-store.js';
import { RowChecksum } from '../data/checksum.js';
import { RuleBank } from './rule-bank.js';
import { toRuleRow } from './rule-values.js';
import { checkConstraints } from './rules/constraint.js';
import type { RowChange } from '../data/row-change.js';
import { withConflictRetries } from './write-retry.js';
import { WriteTransaction } from './write-transaction.js';

/**
 * Runs a request's writes in one database transaction: it commits whole or not at all, and
 * returns the summary of every row touched. A transaction that conflicts with a concurrent one
 * (deadlock, serialization failure, lock wait timeout) runs again from the start, with backoff,
 * within WRITE_RETRY_BUDGET_MS; past it the answer is 409 / 4093.
 */
@Injectable()
export class LogicEngine {
  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: ResourceRegistry,
    readonly bank: RuleBank,
    @Inject(DatabaseGate) private readonly gate: DatabaseGate,
    private readonly checksums: RowChecksum,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async run(work: (tx: WriteTransaction) => Promise<void>): Promise<RowChange[]> {
    // The gate is taken per attempt: a SQLite write waiting out its backoff holds nobody up.
    return withConflictRetries(() => this.gate.write(() => this.once(work)), { budgetMs: this.config.database.writeRetryBudgetMs });
  }

  /** Commit constraints on the final values of every touched row, then commit events. */
  private async beforeCommit(tx: WriteTransaction): Promise<void> {
    const touched = tx.summary.list();
    for (const entry of touched) {
      if (entry.verb !== 'DELETE') checkConstraints(entry.resource, this.bank.for(entry.resource).commitConstraints, entry.row);
    }
    if (this.bank.commitRules.length === 0) return;
    const event = { touched: touched.map((e) => ({ resource: e.resource.name, verb: e.verb, row: toRuleRow(e.resource, e.row) })) };
    for (const rule of this.bank.commitRules) await rule.run(event);
  }

  private async once(work: (tx: WriteTransaction) => Promise<void>): Promise<RowChange[]> {
    const session = await beginWriteSession(this.dataSource);
    try {
      const tx = new WriteTransaction(new RowStore(session, dialectOf(this.dataSource), insertReturnsRow(this.dataSource)), this.registry, this.bank, this.checksums);
      await work(tx);
      await this.beforeCommit(tx);
      await tx.lastReads?.();
      await session.commit();
      return tx.summary.list();
    } catch (error) {
      await session.abandon();
      throw error;
    }
  }
}
