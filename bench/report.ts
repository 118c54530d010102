import type { DatabaseResult, RunInfo, ScalePair, ScalingResult, StormResult } from './results.js';
import { ratioToRaw } from './summary.js';
import type { TargetVerdict } from './targets.js';

const num = (x: number, digits = 0): string => (Number.isFinite(x) ? x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '–');
const ms = (x: number): string => (Number.isFinite(x) ? (x < 10 ? x.toFixed(1) : x.toFixed(0)) : '–');
const mb = (bytes: number): string => (Number.isFinite(bytes) && bytes > 0 ? (bytes / 1024 / 1024).toFixed(0) : '–');

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** The A/B table: one line per workload and server, medians of the rounds. */
export function formatMainTable(result: DatabaseResult): string {
  const lines = [
    row(['workload', 'server', 'req/s (median)', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'RSS MB (peak)', 'vs raw', 'notes']),
    row(['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---']),
  ];
  for (const w of result.workloads) {
    for (const server of result.servers) {
      const cell = w.cells[server];
      const note = w.notes[server] ?? '';
      if (!cell) {
        lines.push(row([`${w.id} ${w.title}`, server, '–', '–', '–', '–', '–', '–', '–', note || 'not run']));
        continue;
      }
      const r = server === 'raw' ? Number.NaN : ratioToRaw(cell, w.cells.raw);
      const invalid = cell.valid ? '' : 'INVALID: run had errors';
      lines.push(row([
        `${w.id} ${w.title}`,
        server,
        num(cell.rps),
        ms(cell.p50),
        ms(cell.p99),
        String(cell.errors),
        String(cell.non2xx),
        mb(cell.rssPeak),
        server === 'raw' ? '1' : Number.isFinite(r) ? `${(r * 100).toFixed(0)}%` : '–',
        [invalid, note].filter(Boolean).join('; '),
      ]));
    }
  }
  return lines.join('\n');
}

export function formatStorm(storm: StormResult): string {
  if (storm.skipped) return `Login storm: not run (${storm.skipped}).`;
  return [
    row(['login storm (' + storm.server + ')', 'W1 req/s', 'W1 p99 ms', 'server event-loop delay p99 ms', 'max ms']),
    row(['---', '---:', '---:', '---:', '---:']),
    row(['W1 alone', num(storm.w1Alone.rps), ms(storm.w1Alone.p99), ms(storm.w1Alone.loopP99), '']),
    row(['W1 during 50 concurrent logins', num(storm.w1DuringStorm.rps), ms(storm.w1DuringStorm.p99), ms(storm.w1DuringStorm.loopP99), ms(storm.w1DuringStorm.loopMax)]),
    '',
    `Logins completed during the storm: ${storm.logins} (${num(storm.loginsPerSecond, 1)}/s), errors ${storm.loginErrors}; W1 errors during the storm: ${storm.w1DuringStorm.errors}.`,
  ].join('\n');
}

function scaleLine(pair: ScalePair): string {
  const slowdown = pair.smallRps / pair.largeRps;
  return row([
    pair.label,
    `${pair.small}: ${num(pair.smallRps)} req/s, ${pair.msLabel} ${pair.smallMs.toFixed(2)} ms`,
    `${pair.large}: ${num(pair.largeRps)} req/s, ${pair.msLabel} ${pair.largeMs.toFixed(2)} ms`,
    Number.isFinite(slowdown) ? `${slowdown.toFixed(2)}×` : '–',
    [pair.valid ? '' : 'INVALID: run had errors', pair.note ?? ''].filter(Boolean).join('; '),
  ]);
}

export function formatScaling(scaling: ScalingResult): string {
  return [
    row([`scaling (${scaling.server})`, 'small', 'large', 'cost large / small', 'notes']),
    row(['---', '---', '---', '---:', '---']),
    scaleLine(scaling.insert),
    scaleLine(scaling.w1),
    scaleLine(scaling.w2),
  ].join('\n');
}

export function formatTargets(verdicts: TargetVerdict[]): string {
  return [
    row(['target (issue 8)', 'measured', 'verdict', 'notes']),
    row(['---', '---:', '---', '---']),
    ...verdicts.map((v) => row([v.target, v.value, v.met === undefined ? 'not measured' : v.met ? 'met' : 'MISSED', v.note ?? ''])),
  ].join('\n');
}

/** The whole Markdown report: what RESULTS.md holds and what the run prints. */
export function formatReport(info: RunInfo, results: DatabaseResult[], verdicts: TargetVerdict[]): string {
  const parts = [
    '# Benchmark results',
    '',
    `- Date: ${info.date}`,
    `- Node.js: ${info.node}`,
    `- Databases: ${results.map((r) => r.database).join(', ')}`,
    `- Machine: ${info.machine}`,
    `- Mode: ${info.mode}; ${info.rounds} round(s) of ${info.durationSeconds} s per workload and server, ${info.connections} connections, autocannon; A/B runs alternate${info.elapsedSeconds ? `; took ${Math.round(info.elapsedSeconds)} s` : ''}`,
    `- Command: \`${info.command}\``,
    '',
    '## Targets',
    '',
    formatTargets(verdicts),
  ];
  for (const result of results) {
    parts.push('', `## ${result.database}`, '');
    if (result.tokenNote) parts.push(`**${result.tokenNote}.**`, '');
    parts.push(formatMainTable(result), '', `Targets are judged with ${result.judged} (the faster adapter in this run).`);
    if (result.storm) parts.push('', formatStorm(result.storm));
    if (result.scaling) parts.push('', formatScaling(result.scaling));
  }
  return `${parts.join('\n')}\n`;
}
