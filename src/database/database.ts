import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { DataSource, type EntityManager } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import type { EntityMetadata } from 'typeorm/metadata/EntityMetadata.js';
import { ConstraintCatalog, type ConstraintViolation } from './errors/constraint-violations.js';
import { DatabaseGate } from './connection/database-gate.js';
import { dialectOf, insertReturnsRow, type Dialect } from './dialect.js';
import { loneReads } from './lone-reads.js';
import { pendingMigrationNames } from './migrations/pending-migrations.js';
import { poolUsageOf, type PoolUsage } from './connection/pool-usage.js';
import { beginWriteSession, type WriteSession } from './write-session.js';
import { underBootLock } from './locks/boot-lock.js';
import { ChangeSignals } from './change-signals.js';
import { indexLeads, type IndexLead } from './schema/index-leads.js';
import { runForResultSets, type ResultSet } from './raw-results.js';
import { routinesNamed, type RoutineInfo } from './schema/routine-catalog.js';

/** Rows of a SELECT, as the driver answers them. */
export type Rows = Array<Record<string, unknown>>;

/**
 * The connection a piece of work runs its statements on: TypeORM's manager (repositories,
 * query builders) and raw SQL on the same connection. Outside a transaction, `query` is a lone
 * statement (a pooled connection; on SQLite a prepared statement on its one connection).
 */
export interface DatabaseSession {
  readonly manager: EntityManager;
  query(sql: string, values?: unknown[]): Promise<Rows>;
}

/**
 * Where work reaches the database: the database itself, or one transaction of it (see
 * `Database.transaction`). Services that may run inside a caller's transaction take a scope
 * and default to the database, so the same code is right in both places.
 */
export interface DatabaseScope {
  /** Statements that only read. */
  read<T>(work: (session: DatabaseSession) => Promise<T>): Promise<T>;
  /** Statements that write (each its own transaction unless the scope is one). */
  write<T>(work: (session: DatabaseSession) => Promise<T>): Promise<T>;
}

/**
 * The one way to the database: every statement Tessera runs goes through `read`, `write`,
 * `transaction` or `writeTransaction`, and so through SQLite's read/write gate (see
 * `DatabaseGate`: SQLite through TypeORM is one connection, and a statement outside the gate
 * could join, or see, another request's open transaction). No service holds the DataSource, a
 * repository or the gate: a new one cannot forget the gate and have a SQLite-only bug.
 *
 * Slow work (bcrypt) stays outside `write` and `transaction`: on SQLite every other request
 * waits while either runs.
 */
@Injectable()
export class Database implements DatabaseScope {
  readonly dialect: Dialect;
  /** Whether `INSERT ... RETURNING` hands back the new row (see `insertReturnsRow`). */
  readonly insertReturnsRow: boolean;
  private readonly gate: DatabaseGate;
  private readonly lone: DatabaseSession;
  private catalog?: ConstraintCatalog;
  private signals?: ChangeSignals;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = dialectOf(dataSource);
    this.insertReturnsRow = insertReturnsRow(dataSource);
    this.gate = DatabaseGate.for(dataSource);
    this.lone = { manager: dataSource.manager, query: loneReads(dataSource) };
  }

  read<T>(work: (session: DatabaseSession) => Promise<T>): Promise<T> {
    return this.gate.read(() => work(this.lone));
  }

  write<T>(work: (session: DatabaseSession) => Promise<T>): Promise<T> {
    return this.gate.write(() => work(this.lone));
  }

  /**
   * One transaction through TypeORM: `work` reads and writes through the scope it is given,
   * whose statements run at once on the transaction's connection (the gate is held for the
   * whole transaction and is not re-entrant). It commits when `work` resolves and rolls back
   * when it throws.
   */
  transaction<T>(work: (tx: DatabaseScope) => Promise<T>): Promise<T> {
    return this.gate.write(() =>
      this.dataSource.transaction(async (manager) => {
        const session: DatabaseSession = { manager, query: (sql, values) => manager.query<Rows>(sql, values) };
        const run = <R>(inner: (s: DatabaseSession) => Promise<R>): Promise<R> => inner(session);
        return work({ read: run, write: run });
      }),
    );
  }

  /**
   * One transaction in raw SQL, for the write engine (READ COMMITTED on MySQL/MariaDB and
   * PostgreSQL; on SQLite its statements run directly on the one connection, see
   * `beginWriteSession`). Commits when `work` resolves; rolls back when it throws.
   */
  writeTransaction<T>(work: (session: WriteSession) => Promise<T>): Promise<T> {
    return this.gate.write(async () => {
      const session = await beginWriteSession(this.dataSource);
      try {
        const result = await work(session);
        await session.commit();
        return result;
      } catch (error) {
        await session.abandon();
        throw error;
      }
    });
  }

  /**
   * A SELECT the project wrote (a SQL resource), in a read-only transaction of its own (on SQLite: a statement
   * that writes nothing, refused otherwise), with its columns' kinds as the driver tells them (see `runForResultSets`).
   */
  readOnlyQuery(sql: string, values: unknown[]): Promise<ResultSet> {
    return this.gate.read(async () => (await runForResultSets(this.dataSource, sql, values, true))[0]!);
  }

  /**
   * A call of a stored procedure or function (MySQL/MariaDB and PostgreSQL), in a transaction of its own that
   * commits when it succeeds: every result set it returns, with its columns' kinds.
   */
  callRoutine(sql: string, values: unknown[]): Promise<ResultSet[]> {
    return this.gate.write(() => runForResultSets(this.dataSource, sql, values, false));
  }

  /** The stored procedures and functions of the current schema called `name`, from the catalog (see `routinesNamed`). */
  routinesNamed(name: string): Promise<RoutineInfo[]> {
    return this.read((session) => routinesNamed((sql, values) => session.query(sql, values), this.dialect, name));
  }

  /** Resolves when the database answers a trivial query (through the gate, like any read). */
  async ping(): Promise<void> {
    await this.read((session) => session.query('SELECT 1'));
  }

  /** The migrations of this build the database has not applied (by name, in order). */
  pendingMigrations(): Promise<string[]> {
    return this.read((session) => pendingMigrationNames(this.dataSource, (sql) => session.query(sql)));
  }

  /** Connections in use and callers waiting: the pool's (MySQL/MariaDB, PostgreSQL), or SQLite's gate. */
  poolUsage(): PoolUsage {
    return poolUsageOf(this.dataSource) ?? this.gate.usage();
  }

  /**
   * A boot step that must run once however many instances boot at once on this database (a
   * seed, the first admin account): `work` runs while this instance holds the database's boot
   * lock, and so must check whether the step was done already (see `underBootLock`).
   */
  bootStep<T>(step: string, work: () => Promise<T>, logger?: Logger): Promise<T> {
    return underBootLock(this.dataSource, step, work, logger);
  }

  /**
   * Signals to and from the other instances sharing this database (PostgreSQL LISTEN/NOTIFY;
   * elsewhere they do nothing, see `ChangeSignals`). One per Database; whoever listens closes it.
   */
  changeSignals(logger?: Logger): ChangeSignals {
    this.signals ??= new ChangeSignals(this.dataSource, logger);
    return this.signals;
  }

  /**
   * Which columns of these entities' live tables an index starts with (see `indexLeads`), by
   * table name: for the boot's note on filters that would read a whole table.
   */
  indexLeads(entities: ReadonlyArray<Function | string>): Promise<Map<string, IndexLead>> {
    return this.read(() => indexLeads(this.dataSource, entities));
  }

  /** An entity's TypeORM metadata: table and column names for SQL written from it. */
  metadata(entity: Function): EntityMetadata {
    return this.dataSource.getMetadata(entity);
  }

  /**
   * Which constraint a refused write broke, in entity metadata's names (kind, table, columns),
   * or undefined when the error is no constraint error or cannot be placed.
   */
  constraintViolationOf(error: unknown): ConstraintViolation | undefined {
    this.catalog ??= new ConstraintCatalog(this.dataSource.entityMetadatas, this.dataSource.namingStrategy);
    return this.catalog.violationOf(error);
  }

  /** A raw column value as a repository would hydrate it (JSON, booleans, transformers). */
  hydrate(value: unknown, column: ColumnMetadata): unknown {
    return this.dataSource.driver.prepareHydratedValue(value, column);
  }
}
