import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { RequestMetrics } from './request-metrics.js';
import { Metrics, type LoginKind, type LoginResult, type RequestRecorder, type RuleCounter, type RuleName } from './metrics.js';

/** Where Prometheus scrapes; its own requests are not counted (a scrape would count the scrape before). */
export const METRICS_PATH = '/metrics';

/** Where the pool gauges read from when scraped. */
export type PoolUsageSource = () => { inUse: number; waiting: number };

/**
 * The metrics of one process, in a registry of its own (two apps in one process, as tests run
 * them, do not mix; several instances are told apart by Prometheus's `instance` label).
 * Requests are counted by `RequestMetrics` (cheaper than prom-client's own counters); the
 * rest are prom-client's.
 */
export class PrometheusMetrics extends Metrics implements RequestRecorder {
  readonly enabled = true;
  readonly registry = new Registry();
  private readonly requests: RequestMetrics;
  private readonly logins: Counter;
  private readonly tokens: Counter;
  private readonly ruleRuns: Counter;
  private readonly constraintFailures: Counter;
  private readonly retries: Counter;
  private readonly conflicts: Counter;

  constructor(poolUsage: PoolUsageSource) {
    super();
    const registers = [this.registry];
    this.requests = new RequestMetrics(this.registry);
    this.logins = new Counter({
      name: 'tessera_logins_total',
      help: 'Logins by kind (api, admin) and result (succeeded, failed, throttled, queue_full, error)',
      labelNames: ['kind', 'result'],
      registers,
    });
    this.tokens = new Counter({
      name: 'tessera_tokens_issued_total',
      help: 'Auth tokens issued, by origin (login, provider, manual, admin)',
      labelNames: ['origin'],
      registers,
    });
    this.ruleRuns = new Counter({
      name: 'tessera_rule_executions_total',
      help: "Constraint and event rule executions, by rule (its number in the project's rules), kind and resource",
      labelNames: ['rule', 'kind', 'resource'],
      registers,
    });
    this.constraintFailures = new Counter({
      name: 'tessera_constraint_failures_total',
      help: 'Constraints that refused a write, by rule, kind and resource',
      labelNames: ['rule', 'kind', 'resource'],
      registers,
    });
    this.retries = new Counter({
      name: 'tessera_write_retries_total',
      help: 'Write transactions run again after a conflict with a concurrent one',
      registers,
    });
    this.conflicts = new Counter({
      name: 'tessera_write_conflicts_total',
      help: 'Writes whose conflicts outlasted WRITE_RETRY_BUDGET_MS (409 / 4093)',
      registers,
    });
    new Gauge({
      name: 'tessera_db_pool_in_use',
      help: 'Database connections in use (SQLite: statements holding its one connection)',
      registers,
      collect() {
        this.set(poolUsage().inUse);
      },
    });
    new Gauge({
      name: 'tessera_db_pool_waiting',
      help: 'Callers waiting for a database connection (SQLite: for its one connection)',
      registers,
      collect() {
        this.set(poolUsage().waiting);
      },
    });
    // process_resident_memory_bytes, nodejs_heap_size_used_bytes, nodejs_eventloop_lag_seconds and the rest.
    collectDefaultMetrics({ register: this.registry });
  }

  record(method: string, route: string, status: number, seconds: number): void {
    this.requests.record(method, route, status, seconds);
  }

  login(kind: LoginKind, result: LoginResult): void {
    this.logins.inc({ kind, result });
  }

  tokenIssued(origin: string): void {
    this.tokens.inc({ origin });
  }

  rule(name: RuleName): RuleCounter {
    const runs = this.ruleRuns.labels({ ...name });
    const failures = this.constraintFailures.labels({ ...name });
    return { ran: () => runs.inc(), failed: () => failures.inc() };
  }

  writeRetried(): void {
    this.retries.inc();
  }

  writeConflict(): void {
    this.conflicts.inc();
  }

  /** The text Prometheus scrapes. */
  exposition(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
