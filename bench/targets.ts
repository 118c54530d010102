import { EXPRESS_BARE, RAW_RULES, type DatabaseResult } from './results.js';
import { ratioToRaw } from './summary.js';
import type { WorkloadId } from './workloads.js';

/** One target line, judged. `met` is undefined when this run could not measure it. */
export interface TargetVerdict {
  /** The issue(s) that set the target, e.g. "8" or "8, 31". */
  issue: string;
  target: string;
  value: string;
  met: boolean | undefined;
  note?: string;
}

const RSS_LIMIT = 150 * 1024 * 1024;
// One decimal: 49.96% must not read as "50%" next to a verdict of MISSED.
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const times = (x: number): string => `${x.toFixed(2)}×`;

/** A Tessera server's W as a fraction of raw's, and why it could not be judged when it could not. */
function rawRatio(result: DatabaseResult, id: WorkloadId, server: string): { ratio: number; note?: string } {
  const w = result.workloads.find((x) => x.id === id);
  if (!w) return { ratio: Number.NaN, note: 'not run' };
  if (!result.servers.includes(server)) return { ratio: Number.NaN, note: `${server} not run` };
  const cell = w.cells[server];
  const raw = w.cells.raw;
  const note =
    w.notes[server] ?? (cell && !cell.valid ? 'run had errors (invalid)' : raw && !raw.valid ? 'raw run had errors (invalid)' : undefined);
  return { ratio: ratioToRaw(cell, raw), note };
}

function ratioVerdict(result: DatabaseResult, id: WorkloadId, min: number, label: string, server: string, issue: string): TargetVerdict {
  const { ratio, note } = rawRatio(result, id, server);
  // W0 and W5 send no token: a run without the token check changes nothing in them.
  const tokenNote = result.tokenNote && id !== 'W5' && id !== 'W0' ? result.tokenNote : undefined;
  return {
    issue,
    target: `${id} ≥ ${Math.round(min * 100)}% of raw (${label}, ${result.database}, ${server})`,
    value: Number.isFinite(ratio) ? pct(ratio) : 'n/a',
    met: Number.isFinite(ratio) ? ratio >= min : undefined,
    note: [note, tokenNote].filter(Boolean).join('; ') || undefined,
  };
}

/** Issue 8's ratio targets, judged with the faster adapter of the run. */
function ratioTarget(
  results: DatabaseResult[],
  ids: WorkloadId[],
  min: number,
  label: string,
  kinds?: Array<DatabaseResult['kind']>,
): TargetVerdict[] {
  const out: TargetVerdict[] = [];
  for (const result of results) {
    if (kinds && !kinds.includes(result.kind)) continue;
    for (const id of ids) out.push(withReference(ratioVerdict(result, id, min, label, result.judged, '8'), result, id, result.judged));
  }
  return out;
}

/**
 * Issue 31's targets, each on the adapter it names, measured side by side in the same run:
 * Express (the default adapter) W0 ≥ 40% and W1 ≥ 30% of raw; Fastify W1 ≥ 65%, W4 ≥ 50%,
 * W3 ≥ 35%.
 */
export const ISSUE_31_RATIOS: ReadonlyArray<{ server: string; id: WorkloadId; min: number; label: string }> = [
  { server: 'tessera/express', id: 'W0', min: 0.4, label: 'HTTP floor' },
  { server: 'tessera/express', id: 'W1', min: 0.3, label: 'read' },
  { server: 'tessera/fastify', id: 'W1', min: 0.65, label: 'read' },
  { server: 'tessera/fastify', id: 'W4', min: 0.5, label: 'update' },
  { server: 'tessera/fastify', id: 'W3', min: 0.35, label: 'insert through the rules' },
];

/**
 * Where a Tessera server stands against the reference that does the same work with nothing of
 * Tessera's on a workload both ran: Tessera on Express against Express 5 bare (W0, W1), any
 * Tessera against raw-rules (W3, W7, W8: the rules' writes by hand), e.g. "62.0% of
 * express-bare (express-bare: 48.1% of raw)". Undefined when there is no such reference or it
 * did not run the workload validly.
 */
export function referenceNote(result: DatabaseResult, id: WorkloadId, server: string): string | undefined {
  const reference = server === 'tessera/express' && (id === 'W0' || id === 'W1') ? EXPRESS_BARE : RAW_RULES;
  const w = result.workloads.find((x) => x.id === id);
  const tessera = w?.cells[server];
  const ref = w?.cells[reference];
  if (!server.startsWith('tessera/') || !tessera?.valid || !ref?.valid) return undefined;
  const refToRaw = ratioToRaw(ref, w?.cells.raw);
  return `${pct(tessera.rps / ref.rps)} of ${reference}${Number.isFinite(refToRaw) ? ` (${reference}: ${pct(refToRaw)} of raw)` : ''}`;
}

/** A verdict with the reference's note added. */
function withReference(verdict: TargetVerdict, result: DatabaseResult, id: WorkloadId, server: string): TargetVerdict {
  const reference = referenceNote(result, id, server);
  return reference ? { ...verdict, note: [verdict.note, reference].filter(Boolean).join('; ') } : verdict;
}

function issue31Targets(results: DatabaseResult[]): TargetVerdict[] {
  const out: TargetVerdict[] = [];
  for (const result of results) {
    for (const t of ISSUE_31_RATIOS)
      out.push(withReference(ratioVerdict(result, t.id, t.min, t.label, t.server, '31'), result, t.id, t.server));
  }
  return out;
}

/**
 * Issue 13's hot-parent targets: W7 and W8 without a single failed request on every database,
 * and at least half of Tessera's own W3 throughput (inserts spread over all orders) on MariaDB
 * and PostgreSQL, judged on the same server in the same run. The baseline is W3 rather than
 * raw: raw inserts one row and locks no parent, so it says nothing about queueing on one.
 */
function hotParentTargets(results: DatabaseResult[]): TargetVerdict[] {
  const out: TargetVerdict[] = [];
  for (const result of results) {
    const w3 = result.workloads.find((w) => w.id === 'W3')?.cells[result.judged];
    for (const id of ['W7', 'W8'] as const) {
      const w = result.workloads.find((x) => x.id === id);
      const cell = w?.cells[result.judged];
      const failed = cell ? cell.errors + cell.non2xx : Number.NaN;
      out.push({
        issue: '13',
        target: `${id} without failed requests (hot parent, ${result.database}, ${result.judged})`,
        value: cell ? `${failed} failed` : 'n/a',
        met: cell ? failed === 0 : undefined,
        note: w ? w.notes[result.judged] : 'not run',
      });
      if (result.kind === 'sqlite') continue;
      const ratio = cell?.valid && w3?.valid ? cell.rps / w3.rps : Number.NaN;
      out.push({
        issue: '13',
        target: `${id} ≥ 50% of W3 (hot parent, ${result.database}, ${result.judged})`,
        value: Number.isFinite(ratio) ? pct(ratio) : 'n/a',
        met: Number.isFinite(ratio) ? ratio >= 0.5 : undefined,
        note: !w ? 'not run' : !w3 ? 'W3 not run' : cell && !cell.valid ? 'run had errors (invalid)' : undefined,
      });
    }
  }
  return out;
}

/** The Tessera servers of a run ("tessera/express", "tessera/fastify"), in table order. */
const tesseraServers = (result: DatabaseResult): string[] => result.servers.filter((s) => s.startsWith('tessera/'));

/**
 * Every target of issues 8, 13 and 31, for every database the run measured. Issue 8's are
 * judged with the faster adapter, as they always were; issue 31's name their adapter. Issue 8's
 * RSS target is issue 31's too, which asks it of both adapters: one line per adapter run.
 */
export function judgeTargets(results: DatabaseResult[]): TargetVerdict[] {
  const verdicts: TargetVerdict[] = [
    ...ratioTarget(results, ['W1', 'W2'], 0.5, 'reads', ['sqlite', 'mysql']),
    ...ratioTarget(results, ['W1', 'W2'], 0.5, 'reads, not a target database', ['postgres']).map((v) => ({
      ...v,
      target: `(info) ${v.target}`,
    })),
    ...ratioTarget(results, ['W4'], 0.4, 'update'),
    ...ratioTarget(results, ['W3'], 0.25, 'insert through the rules'),
    ...ratioTarget(results, ['W5'], 0.9, 'login'),
    ...issue31Targets(results),
    ...hotParentTargets(results),
  ];
  for (const result of results) {
    const storm = result.storm;
    const during = storm?.tessera?.w1DuringStorm;
    const rawDuring = storm?.raw?.w1DuringStorm;
    verdicts.push({
      issue: '8',
      target: `event-loop delay p99 < 50 ms during the login storm (${result.database}, ${storm?.server ?? result.judged})`,
      value: during ? `${during.loopP99.toFixed(1)} ms` : 'n/a',
      met: during ? during.loopP99 < 50 && during.errors === 0 && storm.tessera!.loginErrors === 0 : undefined,
      note:
        storm?.skipped ?? (storm ? (rawDuring ? `raw under the same storm: ${rawDuring.loopP99.toFixed(1)} ms` : undefined) : 'not run'),
    });
    const scaling = result.scaling;
    // Cost per request is 1/throughput, so "large costs at most 1.2× small" is small rps / large rps ≤ 1.2.
    const scaled = scaling
      ? [
          { pair: scaling.insert, max: 1.2, issue: '8' },
          { pair: scaling.w1, max: 1.2, issue: '8' },
          // Issue 31 item 4: filtered reads stay flat with size once the filtered column is indexed.
          { pair: scaling.w2, max: 1.5, issue: '31' },
        ]
      : [];
    for (const { pair, max, issue } of scaled) {
      const slowdown = pair.smallRps / pair.largeRps;
      verdicts.push({
        issue,
        target: `${pair.label}: ${pair.large} within ${max}× of ${pair.small} (${result.database}, ${scaling!.server})`,
        value: Number.isFinite(slowdown) && pair.valid ? times(slowdown) : 'n/a',
        met: Number.isFinite(slowdown) && pair.valid ? slowdown <= max : undefined,
        note: pair.note,
      });
    }
    if (!scaling) verdicts.push({ issue: '8, 31', target: `scaling (${result.database})`, value: 'n/a', met: undefined, note: 'not run' });
    for (const server of tesseraServers(result)) {
      const peaks = result.workloads.map((w) => w.cells[server]?.rssPeak ?? 0);
      const peak = Math.max(0, ...peaks);
      verdicts.push({
        issue: '8, 31',
        target: `RSS < 150 MB during load (${result.database}, ${server})`,
        value: peak > 0 ? `${(peak / 1024 / 1024).toFixed(0)} MB` : 'n/a',
        met: peak > 0 ? peak < RSS_LIMIT : undefined,
      });
    }
  }
  return verdicts;
}
