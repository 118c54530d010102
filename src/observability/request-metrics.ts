import type { Metric, Registry } from 'prom-client';

/** The route label of a request no route matched: one fixed value, never the URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Methods Node's parser accepts are a fixed set already; anything outside the usual ones is named OTHER. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Seconds; a key read takes a few milliseconds, a write with rules tens, a login (bcrypt) hundreds. */
export const LATENCY_BUCKETS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A type alias, not an interface: it must fit the samples' Record of labels. */
type RequestLabels = { method: string; route: string; status: string };

/** One sample as the registry renders it (prom-client's own shape, which it does not export). */
interface Sample {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

interface Series {
  labels: RequestLabels;
  count: number;
  sum: number;
  /** Observations per bucket, not cumulative; the last one is +Inf. */
  inBucket: number[];
}

/**
 * Requests by method, route pattern and status: a counter and a latency histogram, kept in
 * plain numbers and turned into prom-client's metric objects only when scraped. prom-client's
 * own Counter and Histogram validate and hash the labels on every increment (about 1.2 µs a
 * request, measured); here a request is one Map lookup and three additions.
 */
export class RequestMetrics {
  private readonly series = new Map<string, Series>();

  constructor(registry: Registry) {
    register(registry, {
      name: 'tessera_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      type: 'counter',
      values: () => [...this.series.values()].map((s) => ({ labels: s.labels, value: s.count })),
    });
    register(registry, {
      name: 'tessera_http_request_duration_seconds',
      help: 'Time from the request to the end of its answer, by method, route pattern and status',
      type: 'histogram',
      values: () => [...this.series.values()].flatMap(histogramValues),
    });
  }

  record(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.series.get(key);
    if (!series) {
      series = {
        labels: { method: METHODS.has(method) ? method : 'OTHER', route, status: String(status) },
        count: 0,
        sum: 0,
        inBucket: new Array<number>(LATENCY_BUCKETS.length + 1).fill(0),
      };
      this.series.set(key, series);
    }
    series.count += 1;
    series.sum += seconds;
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket++;
    series.inBucket[bucket]! += 1;
  }
}

/** One series of the histogram in Prometheus's form: cumulative buckets, then the sum and the count. */
function histogramValues(series: Series): Sample[] {
  const values: Sample[] = [];
  let cumulative = 0;
  series.inBucket.forEach((count, index) => {
    cumulative += count;
    const le = index < LATENCY_BUCKETS.length ? LATENCY_BUCKETS[index]! : '+Inf';
    values.push({ metricName: 'tessera_http_request_duration_seconds_bucket', labels: { le, ...series.labels }, value: cumulative });
  });
  values.push({ metricName: 'tessera_http_request_duration_seconds_sum', labels: series.labels, value: series.sum });
  values.push({ metricName: 'tessera_http_request_duration_seconds_count', labels: series.labels, value: series.count });
  return values;
}

/** A metric the registry renders like its own: it only needs a name and `get()`. */
function register(registry: Registry, spec: { name: string; help: string; type: 'counter' | 'histogram'; values: () => Sample[] }): void {
  const metric = {
    name: spec.name,
    get: () => Promise.resolve({ name: spec.name, help: spec.help, type: spec.type, aggregator: 'sum', values: spec.values() }),
  };
  // The registry reads only `name` and `get()` of what it holds; prom-client's Metric type is its class.
  registry.registerMetric(metric as unknown as Metric);
}
