import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type LabelValues } from 'prom-client';
import { Metrics, type LoginKind, type LoginResult, type RequestRecorder, type RuleCounter, type RuleName } from './metrics.js';

/** Where Prometheus scrapes; its own requests are not counted (a scrape would count the scrape before). */
export const METRICS_PATH = '/metrics';

/** The route label of a request no route matched: one fixed value, never the URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Methods Node's parser accepts are a fixed set already; anything outside the usual ones is named OTHER. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Seconds; a key read takes a few milliseconds, a write with rules tens, a login (bcrypt) hundreds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Where the pool gauges read from when scraped. */
export type PoolUsageSource = () => { inUse: number; waiting: number };

interface RequestChild {
  count: ReturnType<Counter['labels']>;
  latency: ReturnType<Histogram['labels']>;
}

/**
 * The metrics of one process, in a registry of its own (two apps in one process, as tests run
 * them, do not mix; several instances are told apart by Prometheus's `instance` label).
 * Recording a request looks up a cached child by its labels and increments it: no allocation
 * once a route has been seen.
 */
export class PrometheusMetrics extends Metrics implements RequestRecorder {
  readonly enabled = true;
  readonly registry = new Registry();
  private readonly requests: Counter;
  private readonly latency: Histogram;
  private readonly requestChildren = new Map<string, RequestChild>();
  private readonly logins: Counter;
  private readonly tokens: Counter;
  private readonly ruleRuns: Counter;
  private readonly constraintFailures: Counter;
  private readonly retries: Counter;
  private readonly conflicts: Counter;

  constructor(poolUsage: PoolUsageSource) {
    super();
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'tessera_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.latency = new Histogram({
      name: 'tessera_http_request_duration_seconds',
      help: 'Time from the request to the end of its answer, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
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
    const key = `${method} ${status} ${route}`;
    let child = this.requestChildren.get(key);
    if (!child) {
      const labels: LabelValues<string> = { method: METHODS.has(method) ? method : 'OTHER', route, status: String(status) };
      child = { count: this.requests.labels(labels), latency: this.latency.labels(labels) };
      this.requestChildren.set(key, child);
    }
    child.count.inc();
    child.latency.observe(seconds);
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
