import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { apiErrorFromDatabase } from '../database/database-errors.js';
import { DatabaseGate } from '../database/database-gate.js';
import { ResourceRegistry } from '../resources/resource-registry.js';
import { dialectOf } from '../resources/sql-dialect.js';
import { RowStore } from '../resources/sql/row-store.js';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import type { SummaryEntry } from './transaction-summary.js';
import { WriteTransaction } from './write-transaction.js';

const DEADLOCK_RETRIES = 3;

/**
 * Runs a request's writes in one database transaction: it commits whole or not at all, and
 * returns the summary of every row touched. Deadlocks are retried a few times, then answered
 * 409 / 4090.
 */
@Injectable()
export class LogicEngine {
  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: ResourceRegistry,
    @Inject(DatabaseGate) private readonly gate: DatabaseGate,
  ) {}

  async run(work: (tx: WriteTransaction) => Promise<void>): Promise<SummaryEntry[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.gate.write(() => this.once(work));
      } catch (error) {
        const mapped = error instanceof ApiError ? undefined : apiErrorFromDatabase(error);
        const deadlock = mapped?.errorCode === ErrorCode.CHECKSUM_MISMATCH;
        if (deadlock && attempt < DEADLOCK_RETRIES) continue;
        throw mapped ?? error;
      }
    }
  }

  private async once(work: (tx: WriteTransaction) => Promise<void>): Promise<SummaryEntry[]> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction(dialectOf(this.dataSource) === 'sqlite' ? undefined : 'READ COMMITTED');
      const tx = new WriteTransaction(new RowStore(runner, dialectOf(this.dataSource)), this.registry);
      await work(tx);
      await runner.commitTransaction();
      return tx.summary.list();
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }
}
