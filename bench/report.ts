import { NOT_SERVED, type DatabaseResult, type RunInfo, type ScalePair, type ScalingResult, type StormResult } from './results.js';
import { ratioToRaw } from './summary.js';
import { referenceNote, type TargetVerdict } from './targets.js';

const num = (x: number, digits = 0): string =>
  Number.isFinite(x) ? x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '–';
const ms = (x: number): string => (Number.isFinite(x) ? (x < 10 ? x.toFixed(1) : x.toFixed(0)) : '–');
const mb = (bytes: number): string => (Number.isFinite(bytes) && bytes > 0 ? (bytes / 1024 / 1024).toFixed(0) : '–');

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** The A/B table: one line per workload and server, medians of the rounds. */
export function formatMainTable(result: DatabaseResult): string {
  const lines = [
    row([
      'workload',
      'server',
      'req/s (median)',
      'p50 ms',
      'p99 ms',
      'errors',
      'non-2xx',
      'RSS MB (peak)',
      'server CPU µs/req',
      'vs raw',
      'notes',
    ]),
    row(['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---']),
  ];
  for (const w of result.workloads) {
    for (const server of result.servers) {
      const cell = w.cells[server];
      // express-bare serves W0 and W1 only, raw-rules W3, W7 and W8: no line elsewhere.
      if (w.notes[server] === NOT_SERVED) continue;
      const note = [w.notes[server], referenceNote(result, w.id, server)].filter(Boolean).join('; ');
      if (!cell) {
        lines.push(row([`${w.id} ${w.title}`, server, '–', '–', '–', '–', '–', '–', '–', '–', note || 'not run']));
        continue;
      }
      const r = server === 'raw' ? Number.NaN : ratioToRaw(cell, w.cells.raw);
      const invalid = cell.valid ? '' : 'INVALID: run had errors';
      lines.push(
        row([
          `${w.id} ${w.title}`,
          server,
          num(cell.rps),
          ms(cell.p50),
          ms(cell.p99),
          String(cell.errors),
          String(cell.non2xx),
          mb(cell.rssPeak),
          num(cell.cpuMicros),
          server === 'raw' ? '1' : Number.isFinite(r) ? `${(r * 100).toFixed(0)}%` : '–',
          [invalid, note].filter(Boolean).join('; '),
        ]),
      );
    }
  }
  return lines.join('\n');
}

export function formatStorm(storm: StormResult): string {
  if (storm.skipped || !storm.tessera) return `Login storm: not run (${storm.skipped ?? 'no result'}).`;
  const lines = [
    row([
      'login storm: W1 with 32 connections, then W1 while 50 more connections log in',
      'W1 req/s',
      'W1 p99 ms',
      'server event-loop delay p99 ms',
      'max ms',
      'logins/s',
    ]),
    row(['---', '---:', '---:', '---:', '---:', '---:']),
  ];
  for (const [name, m] of [
    [storm.server, storm.tessera],
    ['raw', storm.raw],
  ] as const) {
    if (!m) continue;
    lines.push(row([`${name}: W1 alone`, num(m.w1Alone.rps), ms(m.w1Alone.p99), ms(m.w1Alone.loopP99), '', '']));
    lines.push(
      row([
        `${name}: W1 during the storm`,
        num(m.w1DuringStorm.rps),
        ms(m.w1DuringStorm.p99),
        ms(m.w1DuringStorm.loopP99),
        ms(m.w1DuringStorm.loopMax),
        num(m.loginsPerSecond, 1),
      ]),
    );
  }
  const errors = storm.tessera.loginErrors + storm.tessera.w1DuringStorm.errors;
  lines.push(
    '',
    `Errors during the storm on ${storm.server}: ${errors} (logins ${storm.tessera.loginErrors}, W1 ${storm.tessera.w1DuringStorm.errors}).`,
  );
  return lines.join('\n');
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
    row(['issue', 'target', 'measured', 'verdict', 'notes']),
    row(['---:', '---', '---:', '---', '---']),
    ...verdicts.map((v) =>
      row([v.issue, v.target, v.value, v.met === undefined ? 'not measured' : v.met ? 'met' : 'MISSED', v.note ?? '']),
    ),
  ].join('\n');
}

/** One database's part of a report, with the run that measured it. */
export interface ReportEntry {
  info: RunInfo;
  result: DatabaseResult;
}

function runLine(info: RunInfo): string {
  const load = info.loadAverage
    ? `; load average (1 min) ${info.loadAverage.start.toFixed(2)} at the start, ${info.loadAverage.end.toFixed(2)} at the end`
    : '';
  const took = info.elapsedSeconds ? `; took ${Math.round(info.elapsedSeconds)} s` : '';
  return `Run: ${info.date}, \`${info.command}\` (${info.mode}: ${info.rounds} round(s) of ${info.durationSeconds} s per workload and server, ${info.connections} connections${took}${load}).`;
}

/** The whole Markdown report: what RESULTS.md holds and what the run prints. */
export function formatReport(entries: ReportEntry[], verdicts: TargetVerdict[]): string {
  const distinct = (values: string[]): string => [...new Set(values)].join('; ');
  const parts = [
    '# Benchmark results',
    '',
    `- Date: ${
      entries
        .map((e) => e.info.date)
        .sort()
        .at(-1) ?? ''
    }`,
    `- Node.js: ${distinct(entries.map((e) => e.info.node))}`,
    `- Databases: ${entries.map((e) => e.result.database).join(', ')}`,
    `- Machine: ${distinct(entries.map((e) => e.info.machine))}; the load generator (autocannon, in the harness process) and the server share the cores, and anything else running adds noise (each section gives the load average)`,
    '',
    '## How it was measured',
    '',
    "- Tessera runs as `npm start` runs it: `node dist/src/main.js` with the start script's environment variables and Node.js flags, read from package.json (LOG_LEVEL=warn, BCRYPT_COST=10, default pool size), a child process of the harness, on a fresh scratch database: Tessera's migrations create the schema, then the data set (1,000 customers, 100 products, 10,000 orders, 50,000 line items; deterministic; every demo rule checked in SQL after seeding) replaces the demo rows.",
    "- raw (`bench/raw/`) is node:http with the same driver, the workloads' SQL, tokens in a Map, Tessera's own checksum function and JSON.stringify: the most one Node process can do for the same answers. express-bare (`bench/raw/express-bare.ts`) is Express 5 with nothing else (no middleware; no X-Powered-By and no ETag of its own, as on Tessera) around raw's store, token check and rows; it serves W0 and W1 only, beside Tessera on Express, to show what Express itself costs. It is stock Express: it changes each request's and response's prototype as it takes them, where Tessera's server makes them with those prototypes (see the README), so Tessera on Express can pass it. raw-rules is raw's server doing by hand what the demo's rules write for a line item (`bench/raw/rule-writes.ts`: the line item with its price copied and amount derived, the order's total and amount owed, the customer's balance held to the credit limit when the order is unpaid, and the audit row), with the order locked first; it serves W3, W7 and W8, and shows what those writes cost without Tessera. All three are child processes of the harness, like Tessera. The harness checks that every server gives raw's W1 answer (columns, checksum, href path) and W0 answer before measuring, and that raw-rules writes the rows Tessera's rules write for the same line item, each total moved on by its amount.",
    '- W0 is `GET @heartbeat` without a token, the HTTP floor of each server: `{"status":"OK"}` with the headers Tessera sends on every answer (its security headers, Cache-Control and an X-Request-Id). raw and express-bare copy them from Tessera\'s own answer at the start of the run and send them too (a fresh request id each time), so W0 is the same bytes on the wire on every server; W1 to W8 on raw stay without them, as in earlier runs.',
    "- W1/W2/W4 pick a random customer or filter value per request; W3 posts to a random order (raw inserts one row, deriving price and amount in its INSERT; Tessera writes the line item, its order, its customer and an audit row through the rules, raw-rules the same rows by hand; the W3 targets stay judged against raw, with Tessera's share of raw-rules beside them); W4 sends `@metadata.checksum: \"override\"`, so runs never conflict; W5 logs in as demo; W6 reads the first page of orders as sam (Sales rep). W7 and W8 are W3 concentrated on hot parents: every request into the same order, or into one of the same customer's unpaid orders (the customer with the most), so every request adjusts the same customer balance; they are judged against Tessera's own W3 (raw runs them too, for reference, but locks no parent).",
    "- Servers take turns on each workload, in reverse order every other round; each run waits (up to 3 s) for the machine to go idle first. req/s, p50 and p99 are medians over the rounds; server CPU µs/req is the server process's own CPU time per request (steadier than req/s on a busy machine); RSS is the peak VmRSS of the server process, sampled every 200 ms during load. A run with any error or non-2xx answer is marked INVALID and judges no target.",
    '',
    '## Targets',
    '',
    formatTargets(verdicts),
  ];
  for (const { info, result } of entries) {
    parts.push('', `## ${result.database}`, '', runLine(info), '');
    if (result.tokenNote) parts.push(`**${result.tokenNote}.**`, '');
    parts.push(
      formatMainTable(result),
      '',
      `Issue 8 and 13 targets, the login storm and the scaling runs are judged with ${result.judged} (the faster adapter in this run); issue 31's targets with the adapter each names, and RSS on every adapter.`,
    );
    if (result.storm) parts.push('', formatStorm(result.storm));
    if (result.scaling) parts.push('', formatScaling(result.scaling));
  }
  return `${parts.join('\n')}\n`;
}
