import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { ApiError } from '../common/api-error.js';
import { Metrics, type RuleCounter } from '../observability/metrics.js';
import { ErrorCode } from '../common/error-codes.js';
import { LOGGER } from '../observability/logger.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { RowChecksum } from '../data/checksum.js';
import { keyOf } from '../data/primary-key.js';
import { ResourceRegistry, type Resource } from '../data/resource-registry.js';
import { RowStore } from '../data/row-store.js';
import { Database } from '../database/database.js';
import { ConstraintRefusal } from '../database/errors/constraint-violations.js';
import { conflictCodes } from '../database/errors/database-errors.js';
import { ConstraintFailure } from './constraint-failure.js';
import type { RowPolicy } from './row-policy.js';
import { RuleBank } from './rule-bank.js';
import { RuleLog } from './rule-log.js';
import type { Rule } from './rule-dsl.js';
import { toRuleRow } from './rule-values.js';
import { checkConstraints } from './rules/constraint.js';
import { runCommitRows } from './rules/commit-row.js';
import { withConflictRetries } from '../database/locks/write-retry.js';
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
    private readonly database: Database,
    private readonly registry: ResourceRegistry,
    private readonly bank: RuleBank,
    private readonly checksums: RowChecksum,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: Metrics,
  ) {}

  /**
   * Runs `work` (a client's inserts, updates and deletes on `tx`) with every rule, under the
   * caller's `policy`, and answers the summary as the policy shows it to the caller. A failed
   * constraint is 422 / 4220 with its message as the policy renders it for the caller.
   */
  async run<Shown>(policy: RowPolicy<Shown>, work: (tx: WriteTransaction) => Promise<void>, ruleLog?: RuleLog): Promise<Shown[]> {
    try {
      // Each attempt is a transaction of its own: on SQLite one waiting out its backoff holds nobody up.
      return await withConflictRetries(() => this.once(policy, work, ruleLog), {
        budgetMs: this.config.database.writeRetryBudgetMs,
        // One line per retry at debug: how often writes conflict (on Galera: certification failures).
        onRetry: (retry, error, delayMs) => {
          this.metrics.writeRetried();
          this.logger.debug({ retry, ...conflictCodes(error), delayMs: Math.round(delayMs) }, 'write conflict; retrying');
        },
        onGiveUp: () => this.metrics.writeConflict(),
      });
    } catch (error) {
      if (error instanceof ConstraintFailure) throw new ApiError(ErrorCode.RULE_CONSTRAINT, await policy.explain(error));
      // A rule's write may break a constraint of a table, or on a column, the caller cannot read.
      const violation = this.database.constraintViolationOf(error);
      if (violation) throw new ConstraintRefusal(policy.shownViolation(violation), error);
      throw error;
    }
  }

  /** Attributes rules derive: clients may not write them. */
  derivedAttributes(resource: Resource): ReadonlySet<string> {
    return this.bank.for(resource).derived;
  }

  /** Commit constraints on the final values of every touched row, then per-row commit events, then commit events. */
  private async beforeCommit(tx: WriteTransaction, ruleLog: RuleLog | undefined): Promise<void> {
    const touched = tx.summary.list();
    for (const entry of touched) {
      if (entry.verb === 'DELETE') continue;
      const constraints = this.bank.for(entry.resource).commitConstraints;
      checkConstraints(entry.resource, constraints, entry.row, this.counterOf);
      if (ruleLog) for (const rule of constraints) ruleLog.record(entry.resource, keyOf(entry.resource, entry.row), rule);
    }
    await runCommitRows(
      tx,
      touched,
      (resource) => this.bank.for(resource).commitRows,
      ruleLog && ((resource, row, rule) => ruleLog.record(resource, keyOf(resource, row), rule)),
    );
    if (this.bank.commitRules.length === 0) return;
    const event = { touched: touched.map((e) => ({ resource: e.resource.name, verb: e.verb, row: toRuleRow(e.resource, e.row) })) };
    for (const rule of this.bank.commitRules) {
      this.bank.counterOf(rule).ran();
      ruleLog?.recordTransaction(rule);
      await rule.run(event);
    }
  }

  private readonly counterOf = (rule: Rule): RuleCounter => this.bank.counterOf(rule);

  /** A rule log for one request's write (`rulesummary=true`, `rulelog=true`, a debug log), naming rules as the project's rule bank does. */
  ruleLog(): RuleLog {
    return new RuleLog((rule) => this.bank.describe(rule));
  }

  private once<Shown>(policy: RowPolicy<Shown>, work: (tx: WriteTransaction) => Promise<void>, ruleLog?: RuleLog): Promise<Shown[]> {
    return this.database.writeTransaction(async (session) => {
      ruleLog?.clear();
      const store = new RowStore(session, this.database.dialect, this.database.insertReturnsRow);
      const tx = new WriteTransaction(store, this.registry, this.bank, this.checksums, policy, ruleLog);
      await work(tx);
      await this.beforeCommit(tx, ruleLog);
      await tx.readBackStored();
      return policy.summary(store, tx.summary.list());
    });
  }
}
