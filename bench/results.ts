import type { CellSummary } from './summary.js';
import type { WorkloadId } from './workloads.js';

/** Everything one benchmark run found on one database; what the report and the targets read. */
export interface DatabaseResult {
  /** e.g. "SQLite 3.50.4" */
  database: string;
  kind: 'sqlite' | 'mysql' | 'postgres';
  /** Server names in table order; "raw" is the baseline. */
  servers: string[];
  /** Set when the harness ran without tokens. */
  tokenNote?: string;
  workloads: WorkloadResult[];
  /** The Tessera server (adapter) the targets are judged with. */
  judged: string;
  storm?: StormResult;
  scaling?: ScalingResult;
}

/** Express 5 bare (bench/raw/express-bare.ts), beside Tessera on Express, on W0 and W1. */
export const EXPRESS_BARE = 'express-bare';

/** raw doing by hand what the demo's rules write for a line item (bench/raw/rule-writes.ts), on W3, W7 and W8. */
export const RAW_RULES = 'raw-rules';

/** The note of a server that does not serve a workload at all (express-bare serves W0 and W1 only): the report shows no line for it. */
export const NOT_SERVED = 'not served';

export interface WorkloadResult {
  id: WorkloadId;
  title: string;
  cells: Record<string, CellSummary | undefined>;
  /** What the requests did, per server (e.g. "writes 4 rows"); or why a server was not run. */
  notes: Record<string, string | undefined>;
}

/** W1 alone and during the storm on one server; loop delays are the server's own (ms). */
export interface StormMeasure {
  logins: number;
  loginsPerSecond: number;
  loginErrors: number;
  w1Alone: { rps: number; p99: number; loopP99: number };
  w1DuringStorm: { rps: number; p99: number; errors: number; loopP99: number; loopMax: number };
}

export interface StormResult {
  server: string;
  tessera?: StormMeasure;
  /** The same storm on the raw server, for reference. */
  raw?: StormMeasure;
  /** Why it did not run, when it did not. */
  skipped?: string;
}

export interface ScalePair {
  label: string;
  small: string;
  large: string;
  /** req/s, medians */
  smallRps: number;
  largeRps: number;
  /** Milliseconds: p50 latency, or for one connection the mean time per request (1000 / req/s), which has sub-millisecond resolution. */
  smallMs: number;
  largeMs: number;
  msLabel: 'p50' | 'per request';
  valid: boolean;
  note?: string;
}

export interface ScalingResult {
  server: string;
  insert: ScalePair;
  w1: ScalePair;
  w2: ScalePair;
}

export interface RunInfo {
  date: string;
  node: string;
  machine: string;
  mode: 'full' | 'quick';
  command: string;
  durationSeconds: number;
  rounds: number;
  connections: number;
  elapsedSeconds?: number;
  /** 1-minute load average when the run started and ended: other work on a shared machine shows here. */
  loadAverage?: { start: number; end: number };
}
