import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { Database } from '../database/database.js';
import { LoginAttemptCounter, type LoginAttemptScope } from '../database/schema/login-attempt.entity.js';
import { LoginLease } from '../database/schema/login-lease.entity.js';
import { conflictCodes } from '../database/errors/database-errors.js';
import { withConflictRetries } from '../database/locks/write-retry.js';
import { ApiError } from '../common/api-error.js';
import { Clock } from '../common/clock.js';
import { ErrorCode } from '../common/error-codes.js';
import { LOGGER } from '../observability/logger.js';
import { PasswordHasher } from './password-hasher.js';
import { TurnLines } from './turn-lines.js';

/** Closed windows are swept at most this often, not on every login. */
const SWEEP_INTERVAL_MS = 60_000;
/** Longest a login waits for the other logins of its account (or address) in progress to finish. */
const WAIT_LIMIT_MS = 10_000;
/** How often the head of a line of waiting logins looks again: logins finishing on other instances wake nobody here. */
const POLL_MS = 250;
/**
 * A slot's lease lasts this many times the longest its password check can take (see
 * `leaseMs`): a login still being checked keeps its slot even when the check runs late, and
 * the slots of a killed process come back within seconds, not when their window closes.
 */
const LEASE_MULTIPLE = 2;
/** Expired leases taken back at one look; only a process that died (or lost its database) leaves any. */
const RECLAIM_BATCH = 100;

const SCOPES: readonly LoginAttemptScope[] = ['account', 'address'];

/** Where a login comes from: the client's address, and a signal that aborts once the client has gone (see `whileClientConnected`). */
export interface LoginClient {
  address: string;
  gone?: AbortSignal;
}

/** Who is trying to log in: the account name (with its realm, e.g. `api:` or `admin:`) and the client address. */
export interface LoginAttempt {
  account: string;
  address: string;
  /**
   * Aborts once the client has gone (see `whileClientConnected`): nobody can hear the answer,
   * so the attempt stops waiting for a turn, and a slot it holds is given back at once.
   */
  clientGone?: AbortSignal;
}

/**
 * How an admitted attempt ended: the password was right, wrong, or never judged (the provider
 * timed out, the database failed, the client went): that tells the client nothing, so it is
 * not a failure.
 */
export type LoginOutcome = 'succeeded' | 'failed' | 'abandoned';

/** An attempt admitted by `reserve`: hand it to `finish` once its password has been checked. */
export interface LoginReservation {
  readonly subjects: Readonly<Record<LoginAttemptScope, string>>;
  /** The id of the lease row that holds the slot. */
  readonly lease: string;
  finished: boolean;
}

type Subjects = LoginReservation['subjects'];
type Verdict = { kind: 'full'; retryAt: number } | { kind: 'busy' } | { kind: 'missing' } | { kind: 'open' };
type CounterOutcome = 'failed' | 'succeeded' | 'gave-back';

/** Thrown inside the admitting transaction when the address refuses, to roll the account's count back. */
class AddressRefused extends Error {}

/**
 * Limits login attempts per account and per client address, in the database (so restarts and
 * several instances share the count). Every attempt is counted BEFORE its password is
 * checked, by one conditional UPDATE per counter that both counts and admits: at most the
 * limit, failed logins plus those being checked now, get through to bcrypt, however many
 * arrive at once, on every database and across instances. An attempt over the limit only
 * because others are being checked waits for them (up to WAIT_LIMIT_MS, then 503 / 5032: no
 * failure refused it), so many concurrent logins of one account with the right password all
 * get in; once the window holds the limit
 * of failures, logins are refused with 429 / 4290 and Retry-After until the window (opened by
 * its first attempt) has passed, even with the right password: it is not even checked. A
 * success forgets the account's failures (as after any successful login) but not the
 * address's, so one good account does not unlock spraying guesses at others.
 *
 * A slot being checked is a lease: a `tessera_login_leases` row, made in the same transaction
 * as the two counts, that ends when the login ends, when its client goes, when this process
 * shuts down (`releaseAll`), or, should the process die, at its expiry, when any instance
 * takes it back. Whoever deletes the row gives the counts back, so each is given back once,
 * and a lease never counts as a failure.
 */
@Injectable()
export class LoginThrottle {
  private readonly windowMs: number;
  private readonly limits: Record<LoginAttemptScope, number>;
  private readonly providerTimeoutMs: number;
  private readonly retryBudgetMs: number;
  /** Logins of this process waiting for a turn, one line per `scope:subject`. */
  private readonly lines = new TurnLines(POLL_MS);
  /** Reservations of this process not finished yet, each with what stops it following its client. */
  private readonly open = new Map<LoginReservation, () => void>();
  /** Writes of this process to the throttle's tables under way: the shutdown waits for them. */
  private readonly busy = new Set<Promise<unknown>>();
  private stopping = false;
  private released?: Promise<void>;
  private lastSweep = 0;
  private lastReclaim = 0;

  constructor(
    private readonly db: Database,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clock: Clock,
    private readonly hasher: PasswordHasher,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.windowMs = config.auth.loginFailureWindowSeconds * 1000;
    this.limits = { account: config.auth.loginMaxFailures, address: config.auth.loginMaxFailuresPerAddress };
    this.providerTimeoutMs = config.auth.providerTimeoutMs;
    this.retryBudgetMs = config.database.writeRetryBudgetMs;
  }

  /** Counts the attempt against its account and its address, or throws 429 / 4290. */
  async reserve(attempt: LoginAttempt): Promise<LoginReservation> {
    const subjects = { account: subjectOf(attempt.account), address: subjectOf(attempt.address) };
    const gone = attempt.clientGone;
    const giveUpAt = Date.now() + WAIT_LIMIT_MS;
    // In line behind the logins of this process on the same account or address: first come, first served.
    const ticket = this.lines.enter(lineKeys(subjects));
    try {
      for (;;) {
        this.refuseIfUnwanted(gone);
        if (!this.lines.atHead(ticket)) {
          if (Date.now() >= giveUpAt) throw stillBusy();
          await this.lines.wait(ticket, false, giveUpAt, gone);
          continue;
        }
        const now = this.clock.now();
        const reservation = await this.admit(subjects, now, gone);
        await this.sweepNow(now);
        if (reservation) {
          if (!reservation.finished) return reservation;
          // Given back as soon as it was taken: the client went, or the service is stopping.
          continue;
        }
        const verdict = await this.verdict(subjects, now);
        if (verdict.kind === 'missing') {
          await this.createCounters(subjects, now);
          continue;
        }
        // Whoever waits behind this one hears the same at once: leaving its lines wakes them.
        if (verdict.kind === 'full') throw tooMany(verdict.retryAt, now);
        // Held up by logins in progress: some may be leases a dead process left.
        if (verdict.kind === 'busy' && (await this.reclaimNow(now)) > 0) continue;
        if (Date.now() >= giveUpAt) throw stillBusy();
        if (verdict.kind === 'busy') await this.lines.wait(ticket, true, giveUpAt, gone);
      }
    } finally {
      this.lines.leave(ticket);
    }
  }

  /** Ends the attempt: a success forgets the account's failures, a failure counts for both, an abandoned one for neither. */
  async finish(reservation: LoginReservation, outcome: LoginOutcome): Promise<void> {
    if (reservation.finished) return;
    reservation.finished = true;
    this.open.get(reservation)?.();
    this.open.delete(reservation);
    const { subjects } = reservation;
    try {
      await this.endLease(
        { id: reservation.lease, ...subjects },
        { account: outcome === 'abandoned' ? 'gave-back' : outcome, address: outcome === 'failed' ? 'failed' : 'gave-back' },
      );
    } finally {
      this.lines.wakeHeads(lineKeys(subjects));
    }
  }

  /**
   * Gives back every slot this process holds and admits no more; for the graceful shutdown,
   * once the requests have finished and before the database closes. Logins still running then
   * have no client left to answer (or outlived the grace period). Whatever cannot be given
   * back (the database is gone) expires on its own. Safe to call again: the same promise.
   */
  releaseAll(): Promise<void> {
    this.released ??= this.giveBackAll();
    return this.released;
  }

  private async giveBackAll(): Promise<void> {
    this.stopping = true;
    this.lines.wakeAll();
    // A reservation whose transaction is under way is in `open` once it commits.
    while (this.busy.size > 0) await Promise.all(this.busy);
    const held = [...this.open.keys()];
    let lost = 0;
    for (const reservation of held) await this.finish(reservation, 'abandoned').catch(() => (lost += 1));
    if (held.length > 0) this.logger.info({ slots: held.length, lost }, 'login slots given back at shutdown');
  }

  /** Thrown at the top of every turn of `reserve`: nobody to answer, or no more slots to take. */
  private refuseIfUnwanted(gone: AbortSignal | undefined): void {
    if (gone?.aborted) throw new ApiError(ErrorCode.BAD_REQUEST, 'The client closed the connection before its login was checked.');
    if (this.stopping)
      throw new ApiError(ErrorCode.LOGIN_QUEUE_FULL, 'The service is shutting down; try the login again.', { 'Retry-After': '1' });
  }

  /**
   * How long a slot taken now may be held: LEASE_MULTIPLE times the longest a password check
   * can take. That is the provider's time limit (AUTH_PROVIDER_TIMEOUT_MS), or, when longer,
   * the built-in check behind a full login queue (LOGIN_QUEUE_MAX hashes at BCRYPT_COST, one
   * job per core, timed here). The provider's limit also covers the database work around a
   * built-in check. Whole milliseconds: PostgreSQL refuses a fraction in a bigint.
   */
  private leaseMs(): number {
    return Math.ceil(LEASE_MULTIPLE * Math.max(this.providerTimeoutMs, this.hasher.longestCheckMs()));
  }

  /**
   * Takes a slot on both counters and its lease in one transaction, or nothing: a refusal, or
   * a connection lost halfway, leaves no count behind. Undefined when refused. The
   * reservation is in `open` before the tracked write settles, so a shutdown waiting for the
   * write finds it there.
   */
  private admit(subjects: Subjects, now: number, gone: AbortSignal | undefined): Promise<LoginReservation | undefined> {
    const lease: LoginLease = { id: randomUUID(), ...subjects, expiresAt: now + this.leaseMs() };
    return this.tracked(async () => {
      const admitted = await this.againOnConflict(() =>
        this.db.transaction((tx) =>
          tx.write(async ({ manager }) => {
            if (!(await this.increment(manager, 'account', subjects.account, now))) return false;
            if (!(await this.increment(manager, 'address', subjects.address, now))) throw new AddressRefused();
            await manager.getRepository(LoginLease).insert(lease);
            return true;
          }),
        ),
      ).catch((error: unknown) => {
        if (error instanceof AddressRefused) return false;
        throw error;
      });
      return admitted ? this.hold({ subjects, lease: lease.id, finished: false }, gone) : undefined;
    });
  }

  /** Keeps a new reservation in `open`, following its client; one admitted too late (client gone, stopping) is given back. */
  private hold(reservation: LoginReservation, gone: AbortSignal | undefined): LoginReservation {
    const giveBack = () => void this.finish(reservation, 'abandoned').catch(() => undefined);
    gone?.addEventListener('abort', giveBack, { once: true });
    this.open.set(reservation, () => gone?.removeEventListener('abort', giveBack));
    if (gone?.aborted || this.stopping) giveBack();
    return reservation;
  }

  /**
   * Deletes a lease and, if this call deleted it, gives back its counts: the lease's one
   * transaction, so whoever ends it (its login, its process's shutdown, another instance once
   * it expired) counts it exactly once. A login whose lease was taken back while it ran late
   * still counts its outcome. Returns whether this call ended the lease.
   */
  private endLease(lease: Omit<LoginLease, 'expiresAt'>, outcomes: Record<LoginAttemptScope, CounterOutcome>): Promise<boolean> {
    return this.tracked(() =>
      this.againOnConflict(() =>
        this.db.transaction((tx) =>
          tx.write(async ({ manager }) => {
            const ended = await manager
              .getRepository(LoginLease)
              .createQueryBuilder()
              .delete()
              .where('id = :id', { id: lease.id })
              .execute();
            const held = (ended.affected ?? 0) > 0;
            await this.settle(manager, 'account', lease.account, outcomes.account, held);
            await this.settle(manager, 'address', lease.address, outcomes.address, held);
            return held;
          }),
        ),
      ),
    );
  }

  /**
   * Runs one of the throttle's transactions again when it lost a deadlock or a lock wait to a
   * concurrent one, within WRITE_RETRY_BUDGET_MS, as the write engine does: on MySQL/MariaDB
   * two attempts making the same counter again after the sweep deleted it deadlock (both hold
   * a shared lock on the deleted row and want it exclusive), and on Galera a conflict with
   * another node fails at COMMIT. Past the budget: 409 / 4093.
   */
  private againOnConflict<T>(work: () => Promise<T>): Promise<T> {
    return withConflictRetries(work, {
      budgetMs: this.retryBudgetMs,
      onRetry: (retry, error, delayMs) =>
        this.logger.debug({ retry, ...conflictCodes(error), delayMs: Math.round(delayMs) }, 'login throttle write conflict; retrying'),
    });
  }

  /** `reclaimExpired` at most once per POLL_MS in this process: the heads of several lines may poll together. */
  private async reclaimNow(now: number): Promise<number> {
    if (now - this.lastReclaim < POLL_MS) return 0;
    this.lastReclaim = now;
    return this.reclaimExpired(now);
  }

  /** Takes back the leases that have expired (their process died, or could not reach the database to end them); returns how many. */
  private async reclaimExpired(now: number): Promise<number> {
    const expired = await this.db.read(({ manager }) =>
      manager
        .getRepository(LoginLease)
        .createQueryBuilder()
        .select(['id', 'account', 'address'])
        .where('expires_at <= :now', { now })
        .limit(RECLAIM_BATCH)
        .getRawMany<Omit<LoginLease, 'expiresAt'>>(),
    );
    let reclaimed = 0;
    for (const lease of expired) if (await this.endLease(lease, { account: 'gave-back', address: 'gave-back' })) reclaimed += 1;
    if (reclaimed > 0) this.logger.warn({ slots: reclaimed }, 'expired login slots taken back (a process ended without giving them back)');
    return reclaimed;
  }

  /**
   * The one statement that counts and admits: under READ COMMITTED the row lock makes
   * concurrent increments wait, and each re-checks the condition on the row as the one
   * before it left it. A closed window restarts with this attempt; the logins in progress
   * stay counted, as their leases do. Assignments are in this order on purpose: MySQL
   * evaluates them left to right, and the CASE must see the old window_start.
   */
  private async increment(manager: EntityManager, scope: LoginAttemptScope, subject: string, now: number): Promise<boolean> {
    const result = await counters(manager)
      .createQueryBuilder()
      .update(LoginAttemptCounter)
      .set({
        pending: () => 'pending + 1',
        failures: () => 'CASE WHEN window_start <= :closedBefore THEN 0 ELSE failures END',
        windowStart: () => 'CASE WHEN window_start <= :closedBefore THEN :now ELSE window_start END',
      })
      .where('scope = :scope AND subject = :subject')
      .andWhere('(failures + pending < :limit OR window_start <= :closedBefore)')
      .setParameters({ scope, subject, now, closedBefore: now - this.windowMs, limit: this.limits[scope] })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /**
   * The counters a first attempt needs, each on its own, outside any transaction: on MySQL an
   * INSERT IGNORE meeting another's row keeps a shared lock on it to the end of its
   * transaction, which two of them would turn into a deadlock when both then update it.
   */
  private async createCounters(subjects: Subjects, now: number): Promise<void> {
    for (const scope of SCOPES) {
      await this.againOnConflict(() =>
        this.db.write(({ manager }) =>
          counters(manager)
            .createQueryBuilder()
            .insert()
            .into(LoginAttemptCounter)
            .values({ scope, subject: subjects[scope], windowStart: now, failures: 0, pending: 0 })
            .orIgnore()
            .execute(),
        ),
      );
    }
  }

  /** Ends one attempt on a counter: counted as a failure, forgetting the failures (a success on the account), or given back. */
  private async settle(
    manager: EntityManager,
    scope: LoginAttemptScope,
    subject: string,
    outcome: CounterOutcome,
    held: boolean,
  ): Promise<void> {
    if (!held && outcome === 'gave-back') return;
    const failures = { failed: 'failures + 1', succeeded: '0', 'gave-back': 'failures' }[outcome];
    await counters(manager)
      .createQueryBuilder()
      .update(LoginAttemptCounter)
      .set({ failures: () => failures, ...(held ? { pending: () => 'CASE WHEN pending > 0 THEN pending - 1 ELSE 0 END' } : {}) })
      .where('scope = :scope AND subject = :subject', { scope, subject })
      .execute();
  }

  /**
   * Why `admit` refused: failures at the limit (refuse until the window closes), logins in
   * progress (wait), a counter not made yet, or none of these any more.
   */
  private async verdict(subjects: Subjects, now: number): Promise<Verdict> {
    const rows = await this.db.read(({ manager }) =>
      counters(manager).find({ where: SCOPES.map((scope) => ({ scope, subject: subjects[scope] })) }),
    );
    if (rows.length < SCOPES.length) return { kind: 'missing' };
    let retryAt = 0;
    let busy = false;
    for (const row of rows) {
      const closesAt = row.windowStart + this.windowMs;
      if (closesAt <= now) continue;
      const limit = this.limits[row.scope];
      if (row.failures >= limit) retryAt = Math.max(retryAt, closesAt);
      else if (row.failures + row.pending >= limit) busy = true;
    }
    if (retryAt > 0) return { kind: 'full', retryAt };
    return busy ? { kind: 'busy' } : { kind: 'open' };
  }

  /** Runs a write to the throttle's tables where the shutdown can wait for it. */
  private tracked<T>(work: () => Promise<T>): Promise<T> {
    const running = work();
    const settled = running.then(
      () => undefined,
      () => undefined,
    );
    this.busy.add(settled);
    void settled.then(() => this.busy.delete(settled));
    return running;
  }

  private async sweepNow(now: number): Promise<void> {
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    await this.reclaimExpired(now);
    // A closed window goes once no lease counts in it. One whose pending no lease explains
    // (left by an older build, which counted without leases) goes too.
    await this.againOnConflict(() =>
      this.db.write(({ manager }) =>
        counters(manager)
          .createQueryBuilder()
          .delete()
          .where('window_start <= :cutoff', { cutoff: now - this.windowMs })
          .andWhere(
            `(pending = 0 OR NOT EXISTS (SELECT 1 FROM tessera_login_leases l WHERE ` +
              `(tessera_login_attempts.scope = 'account' AND l.account = tessera_login_attempts.subject) OR ` +
              `(tessera_login_attempts.scope = 'address' AND l.address = tessera_login_attempts.subject)))`,
          )
          .execute(),
      ),
    );
  }
}

const counters = (manager: EntityManager) => manager.getRepository(LoginAttemptCounter);

/** The lines a login stands in (see TurnLines), by `scope:subject`: its account's and its address's. */
function lineKeys(subjects: Subjects): string[] {
  return SCOPES.map((scope) => `${scope}:${subjects[scope]}`);
}

function tooMany(retryAt: number, now: number): ApiError {
  const seconds = Math.max(1, Math.ceil((retryAt - now) / 1000));
  return new ApiError(ErrorCode.TOO_MANY_LOGINS, `Too many failed logins; try again in ${seconds} seconds.`, {
    'Retry-After': String(seconds),
  });
}

/**
 * Held up past WAIT_LIMIT_MS by logins in progress (some perhaps a dead process's, until their
 * leases expire), not by failures: no login failed, so the answer must not say one did, nor
 * count as throttled.
 */
function stillBusy(): ApiError {
  const message = 'Too many logins of this account or from this address are being checked; try again in a second.';
  return new ApiError(ErrorCode.LOGIN_QUEUE_FULL, message, { 'Retry-After': '1' });
}

/**
 * Account names are counted case-insensitively: MySQL's collation would do so anyway, and
 * an attacker must not get fresh attempts by changing the case of a login name.
 */
function subjectOf(value: string): string {
  return value.toLowerCase().slice(0, 200);
}
