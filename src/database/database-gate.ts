import type { DataSource, EntityManager } from 'typeorm';
import { usesSqlite } from './sqlite-connection.js';

/**
 * SQLite through TypeORM is one connection: two transactions from concurrent requests would
 * interleave on it, and a statement of one request, even a lone write or read, would join
 * another request's open transaction: be rolled back with it, or see its uncommitted rows.
 * The gate serialises write transactions and keeps reads out while one is open (readers share).
 * MySQL/MariaDB and PostgreSQL have a pool and real isolation, so there it lets everything
 * through.
 *
 * The rule: every statement goes through the gate (`read`, or `write` for a write or a
 * transaction) unless it runs on the EntityManager of a transaction that already holds the
 * gate (LogicEngine.run, AdminAuditService.change). A method that takes such an optional
 * `manager` passes it on as `inside`: then the work runs at once, since the gate is not
 * re-entrant and taking it again would wait for itself. Slow work (bcrypt) stays outside
 * `write`: every other request waits while it is held.
 */
export class DatabaseGate {
  private readers = 0;
  private writing = false;
  private readonly waiting: Array<{ write: boolean; wake: () => void }> = [];

  constructor(private readonly enabled: boolean) {}

  static for(dataSource: DataSource): DatabaseGate {
    return new DatabaseGate(usesSqlite(dataSource));
  }

  /** `inside`: the manager of a transaction the caller already runs through the gate; `work` then runs at once. */
  async read<T>(work: () => Promise<T>, inside?: EntityManager): Promise<T> {
    if (!this.enabled || inside) return work();
    if (this.writing || this.waiting.some((w) => w.write)) await this.wait(false);
    else this.readers += 1;
    try {
      return await work();
    } finally {
      this.readers -= 1;
      this.wakeNext();
    }
  }

  /** `inside`: the manager of a transaction the caller already runs through the gate; `work` then runs at once. */
  async write<T>(work: () => Promise<T>, inside?: EntityManager): Promise<T> {
    if (!this.enabled || inside) return work();
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
    while (this.waiting.length > 0 && !this.waiting[0]!.write) {
      this.readers += 1;
      this.waiting.shift()!.wake();
    }
  }
}
