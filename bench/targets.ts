import type { DatabaseResult } from './results.js';
import { ratioToRaw } from './summary.js';
import type { WorkloadId } from './workloads.js';

/** One target line of issue 8, judged. `met` is undefined when this run could not measure it. */
export interface TargetVerdict {
  target: string;
  value: string;
  met: boolean | undefined;
  note?: string;
}

const RSS_LIMIT = 150 * 1024 * 1024;
// One decimal: 49.96% must not read as "50%" next to a verdict of MISSED.
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const times = (x: number): string => `${x.toFixed(2)}×`;

function rawRatio(result: DatabaseResult, id: WorkloadId): { ratio: number; note?: string } {
  const w = result.workloads.find((x) => x.id === id);
  if (!w) return { ratio: Number.NaN, note: 'not run' };
  const cell = w.cells[result.judged];
  const raw = w.cells.raw;
  const note =
    w.notes[result.judged] ??
    (cell && !cell.valid ? 'run had errors (invalid)' : raw && !raw.valid ? 'raw run had errors (invalid)' : undefined);
  return { ratio: ratioToRaw(cell, raw), note };
}

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
    for (const id of ids) {
      const { ratio, note } = rawRatio(result, id);
      const tokenNote = result.tokenNote && id !== 'W5' ? result.tokenNote : undefined;
      out.push({
        target: `${id} ≥ ${Math.round(min * 100)}% of raw (${label}, ${result.database}, ${result.judged})`,
        value: Number.isFinite(ratio) ? pct(ratio) : 'n/a',
        met: Number.isFinite(ratio) ? ratio >= min : undefined,
        note: [note, tokenNote].filter(Boolean).join('; ') || undefined,
      });
    }
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
        target: `${id} without failed requests (hot parent, ${result.database}, ${result.judged})`,
        value: cell ? `${failed} failed` : 'n/a',
        met: cell ? failed === 0 : undefined,
        note: w ? w.notes[result.judged] : 'not run',
      });
      if (result.kind === 'sqlite') continue;
      const ratio = cell?.valid && w3?.valid ? cell.rps / w3.rps : Number.NaN;
      out.push({
        target: `${id} ≥ 50% of W3 (hot parent, ${result.database}, ${result.judged})`,
        value: Number.isFinite(ratio) ? pct(ratio) : 'n/a',
        met: Number.isFinite(ratio) ? ratio >= 0.5 : undefined,
        note: !w ? 'not run' : !w3 ? 'W3 not run' : cell && !cell.valid ? 'run had errors (invalid)' : undefined,
      });
    }
  }
  return out;
}

/** Every target line of issue 8, for every database the run measured. */
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
    ...hotParentTargets(results),
  ];
  for (const result of results) {
    const storm = result.storm;
    const during = storm?.tessera?.w1DuringStorm;
    const rawDuring = storm?.raw?.w1DuringStorm;
    verdicts.push({
      target: `event-loop delay p99 < 50 ms during the login storm (${result.database}, ${storm?.server ?? result.judged})`,
      value: during ? `${during.loopP99.toFixed(1)} ms` : 'n/a',
      met: during ? during.loopP99 < 50 && during.errors === 0 && storm.tessera!.loginErrors === 0 : undefined,
      note:
        storm?.skipped ?? (storm ? (rawDuring ? `raw under the same storm: ${rawDuring.loopP99.toFixed(1)} ms` : undefined) : 'not run'),
    });
    const scaling = result.scaling;
    for (const pair of scaling ? [scaling.insert, scaling.w1] : []) {
      // Cost per request is 1/throughput, so "large costs at most 1.2× small" is small rps / large rps ≤ 1.2.
      const slowdown = pair.smallRps / pair.largeRps;
      verdicts.push({
        target: `${pair.label}: ${pair.large} within 1.2× of ${pair.small} (${result.database}, ${scaling!.server})`,
        value: Number.isFinite(slowdown) && pair.valid ? times(slowdown) : 'n/a',
        met: Number.isFinite(slowdown) && pair.valid ? slowdown <= 1.2 : undefined,
        note: pair.note,
      });
    }
    if (!scaling) verdicts.push({ target: `scaling (${result.database})`, value: 'n/a', met: undefined, note: 'not run' });
    const peaks = result.workloads.map((w) => w.cells[result.judged]?.rssPeak ?? 0);
    const peak = Math.max(0, ...peaks);
    verdicts.push({
      target: `RSS < 150 MB during load (${result.database}, ${result.judged})`,
      value: peak > 0 ? `${(peak / 1024 / 1024).toFixed(0)} MB` : 'n/a',
      met: peak > 0 ? peak < RSS_LIMIT : undefined,
    });
  }
  return verdicts;
}
