import type { DataSource } from 'typeorm';
import { usesSqlite } from './sqlite-connection.js';

/**
 * SQLite through TypeORM is one connection: two transactions from concurrent requests would
 * interleave on it, and a statement of one request, even a lone write or read, would join
 * another request's open transaction: be rolled back with it, or see its uncommitted rows.
 * The gate serialises write transactions and keeps reads out while one is open (readers share).
 * MySQL/MariaDB and PostgreSQL have a pool and real isolation, so there it lets everything
 * through.
 *
 * Only `Database` (database.ts) holds it: every statement goes through that facade, which
 * takes the gate's read side for reads and its write side for writes and transactions. The
 * gate is not re-entrant: work inside a transaction runs on the transaction's scope, never
 * through the facade again (it would wait for itself).
 */
export class DatabaseGate {
  private readers = 0;
  private writing = false;
  private readonly waiting: Array<{ write: boolean; wake: () => void }> = [];

  constructor(private readonly enabled: boolean) {}

  /** Work holding the gate (readers, or the one writer) and work waiting for it. */
  usage(): { inUse: number; waiting: number } {
    return { inUse: this.writing ? 1 : this.readers, waiting: this.waiting.length };
  }

  static for(dataSource: DataSource): DatabaseGate {
    return new DatabaseGate(usesSqlite(dataSource));
  }

  async read<T>(work: () => Promise<T>): Promise<T> {
    if (!this.enabled) return work();
    if (this.writing || this.waiting.some((w) => w.write)) await this.wait(false);
    else this.readers += 1;
    try {
      return await work();
    } finally {
      this.readers -= 1;
      this.wakeNext();
    }
  }

  async write<T>(work: () => Promise<T>): Promise<T> {
    if (!this.enabled) return work();
    if (this.writing || this.readers > 0 || this.waiting.length > 0) await this.wait(true);
    else this.writing = true;
    try {
      return await work();
    } finally {
      this.writing = false;
      this.wakeNext();
    }
  }

  /** Resolves once the caller holds the gate (the waker has already counted it in). */
  private wait(write: boolean): Promise<void> {
    return new Promise((wake) => this.waiting.push({ write, wake }));
  }

  private wakeNext(): void {
    if (this.writing || this.waiting.length === 0) return;
    if (this.waiting[0]!.write) {
      if (this.readers > 0) return;
      this.writing = true;
      this.waiting.shift()!.wake();
      return;
    }
    for (let next = this.waiting[0]; next && !next.write; next = this.waiting[0]) {
      this.readers += 1;
      this.waiting.shift();
      next.wake();
    }
  }
}
