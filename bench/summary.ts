import type { Measurement } from './load.js';
import { median, ratio } from './stats.js';

/** The repeated runs of one workload on one server, reduced to what the table shows. */
export interface CellSummary {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Server CPU per request, median. */
  cpuMicros: number;
  /** Peak over all runs. */
  rssPeak: number;
  runs: number;
  /** A run with errors or non-2xx answers does not count as a measurement. */
  valid: boolean;
}

export function summarize(runs: readonly Measurement[]): CellSummary {
  const errors = runs.reduce((n, r) => n + r.errors, 0);
  const non2xx = runs.reduce((n, r) => n + r.non2xx, 0);
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpuMicros: median(runs.map((r) => r.cpuMicros)),
    errors,
    non2xx,
    rssPeak: Math.max(...runs.map((r) => (Number.isFinite(r.rssPeak) ? r.rssPeak : 0))),
    runs: runs.length,
    valid: runs.length > 0 && errors === 0 && non2xx === 0,
  };
}

/** Tessera's median req/s over raw's, only when both are valid measurements. */
export function ratioToRaw(cell: CellSummary | undefined, raw: CellSummary | undefined): number {
  if (!cell?.valid || !raw?.valid) return Number.NaN;
  return ratio(cell.rps, raw.rps);
}
