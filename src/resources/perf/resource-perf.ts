/** One resource's figures since boot, as `@perf` answers them. */
export interface ResourcePerfEntry {
  resource: string;
  /** `TableBased` (a table or a view) or `Custom`, as `@resources` says. */
  resource_type: 'TableBased' | 'Custom';
  requests: number;
  /** Requests answered with a status of 400 or more. */
  errors: number;
  totalMs: number;
  averageMs: number;
  minMs: number;
  maxMs: number;
  byMethod: Record<string, number>;
}

interface Figures {
  type: 'TableBased' | 'Custom';
  requests: number;
  errors: number;
  totalMs: number;
  minMs: number;
  maxMs: number;
  byMethod: Map<string, number>;
}

/** Methods a resource route answers; anything else is counted as OTHER (it never reaches a resource handler today). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** Milliseconds, to the microsecond: enough for a figure people read, and short in JSON. */
const rounded = (ms: number): number => Math.round(ms * 1000) / 1000;

/**
 * Requests to each resource since this process started (`@perf`), counted whatever METRICS_ENABLED says:
 * a request is one Map lookup and a few additions. Keys are the resources' own names (the registry's,
 * resolved before a request gets here), never text from the URL, so the map holds at most one entry
 * per resource. Per process: several instances each count their own.
 */
export class ResourcePerf {
  readonly since = new Date();
  private readonly figures = new Map<string, Figures>();

  record(resource: string, type: 'TableBased' | 'Custom', method: string, status: number, ms: number): void {
    let f = this.figures.get(resource);
    if (!f) {
      f = { type, requests: 0, errors: 0, totalMs: 0, minMs: Number.POSITIVE_INFINITY, maxMs: 0, byMethod: new Map() };
      this.figures.set(resource, f);
    }
    f.requests += 1;
    if (status >= 400) f.errors += 1;
    f.totalMs += ms;
    if (ms < f.minMs) f.minMs = ms;
    if (ms > f.maxMs) f.maxMs = ms;
    const verb = METHODS.has(method) ? method : 'OTHER';
    f.byMethod.set(verb, (f.byMethod.get(verb) ?? 0) + 1);
  }

  /** Every resource asked for since boot, by name. */
  entries(): ResourcePerfEntry[] {
    return [...this.figures.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([resource, f]) => ({
        resource,
        resource_type: f.type,
        requests: f.requests,
        errors: f.errors,
        totalMs: rounded(f.totalMs),
        averageMs: rounded(f.totalMs / f.requests),
        minMs: rounded(f.minMs),
        maxMs: rounded(f.maxMs),
        byMethod: Object.fromEntries([...f.byMethod.entries()].sort(([a], [b]) => (a < b ? -1 : 1))),
      }));
  }
}
