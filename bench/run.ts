/**
 * `npm run bench`: Tessera against the raw-Node baseline (and, beside Tessera on Express,
 * Express 5 alone), on fresh databases, with autocannon; prints a Markdown report and (full
 * runs) writes bench/RESULTS.md from the latest full run of each database kind.
 * See bench/README.md for what each part measures.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { runAbRounds, type Contender } from './ab-runs.js';
import { obtainTokens } from './auth-step.js';
import { BENCH_DATA, generate, hotParents } from './dataset.js';
import { parseOptions, USAGE, type AdapterName, type Options } from './options.js';
import { prepareDatabase } from './prepare.js';
import { heartbeatDifference, heartbeatOf, ruleWritesDifference, withoutOrigin } from './preflight.js';
import { formatReport, type ReportEntry } from './report.js';
import type { DatabaseResult, RunInfo, WorkloadResult } from './results.js';
import { ServerProcess } from './server-process.js';
import { EXPRESS_BARE, expressBareSpec, OUT_DIR, RAW_RULES, rawRulesSpec, rawSpec, ROOT, startTessera } from './servers.js';
import { runScaling } from './scaling.js';
import { geometricMean } from './stats.js';
import { runLoginStorm } from './storm.js';
import { judgeTargets } from './targets.js';
import { API_BASE, workload, type WorkloadContext, type WorkloadId } from './workloads.js';
import { customerName } from './dataset.js';

const started = Date.now();
const loadAtStart = loadavg()[0]!;
const log = (line: string): void => {
  process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
};

const cleanups: Array<() => Promise<void>> = [];
process.once('SIGINT', () => {
  log('interrupted: stopping servers and dropping scratch databases');
  void Promise.allSettled(cleanups.map((c) => c())).then(() => process.exit(130));
});

const dataContext = {
  customers: BENCH_DATA.customers,
  orders: BENCH_DATA.orders,
  products: BENCH_DATA.products,
  hot: hotParents(generate(BENCH_DATA)),
};

async function contextOf(server: ServerProcess): Promise<WorkloadContext> {
  const tokens = await obtainTokens(server.url);
  return tokens.kind === 'token' ? { ...dataContext, demoAuth: tokens.demoAuth, samAuth: tokens.samAuth } : { ...dataContext };
}

/** A server in the A/B rounds; `servers` tracks every live process so they can all be stopped. */
async function contender(name: string, server: ServerProcess, servers: ServerProcess[]): Promise<Contender> {
  const c: Contender = {
    name,
    server,
    ctx: await contextOf(server),
    revive: async () => {
      const next = await c.server.restart();
      servers.splice(servers.indexOf(c.server), 1, next);
      c.server = next;
      c.ctx = await contextOf(next);
    },
  };
  return c;
}

/**
 * Every server must give raw's answer to the same request, or the comparison means nothing: the
 * same W1 body (columns, checksum, href path) and the same W0 status, body and headers (Tessera's
 * security headers included). A problem per server that differs; none when all agree.
 */
async function answerMismatches(contenders: Contender[], raw: Contender): Promise<string[]> {
  const path = `${API_BASE}/customer/${encodeURIComponent(customerName(41))}`;
  const w1 = async (c: Contender): Promise<string> =>
    withoutOrigin(
      await (await fetch(`${c.server.url}${path}`, { headers: c.ctx.demoAuth ? { authorization: c.ctx.demoAuth } : {} })).json(),
    );
  const rawW1 = await w1(raw);
  const rawW0 = await heartbeatOf(raw.server.url);
  const problems: string[] = [];
  for (const c of contenders) {
    if (c === raw) continue;
    if (!c.serves || c.serves.includes('W1')) {
      const mine = await w1(c);
      const problem = `W1 answers differ:\n  ${c.name}: ${mine}\n  raw: ${rawW1}`;
      // Another build (--compare-build) may serve another demo (a table more links its rows otherwise): measure it anyway, and say so.
      if (mine !== rawW1 && c.name.startsWith('other/')) log(`warning: ${problem}`);
      else if (mine !== rawW1) problems.push(problem);
    }
    if (!c.serves || c.serves.includes('W0')) {
      const difference = heartbeatDifference(await heartbeatOf(c.server.url), rawW0);
      const problem = `W0 answers differ between ${c.name} and raw: ${difference}`;
      // Another build (--compare-build) may send other headers: measure it anyway, and say so.
      if (difference && c.name.startsWith('other/')) log(`warning: ${problem}`);
      else if (difference) problems.push(problem);
    }
  }
  return problems;
}

/** The line-item workloads: what raw-rules serves. */
const LINE_ITEM_WORKLOADS: readonly WorkloadId[] = ['W3', 'W7', 'W8'];

/**
 * raw-rules must write what Tessera's rules write, or W3 beside it means nothing: the same line
 * item, posted to one of the hot order (unpaid, so the customer's balance moves too) on Tessera
 * and then on raw-rules, must give the same rows, raw-rules' totals moved on from Tessera's by
 * the line item's amount. A problem when they differ.
 */
async function ruleWritesMismatch(tessera: Contender, rawRules: Contender): Promise<string | undefined> {
  const body = JSON.stringify({ order_number: dataContext.hot.orders[0], product_number: 1, qty_ordered: 1 });
  const post = async (c: Contender): Promise<unknown> => {
    const headers = { 'content-type': 'application/json', ...(c.ctx.demoAuth ? { authorization: c.ctx.demoAuth } : {}) };
    return (await fetch(`${c.server.url}${API_BASE}/lineitem`, { method: 'POST', headers, body })).json();
  };
  const first = await post(tessera);
  const difference = ruleWritesDifference(first, await post(rawRules));
  return difference && `${RAW_RULES} does not write what ${tessera.name}'s rules write: ${difference}`;
}

/** The adapter with the higher throughput across workloads (geometric mean of the per-workload ratios). */
function fasterAdapter(workloads: WorkloadResult[], adapters: AdapterName[]): AdapterName {
  if (adapters.length === 1) return adapters[0]!;
  const ratios = workloads
    .map((w) => [w.cells['tessera/fastify'], w.cells['tessera/express']] as const)
    .filter(([f, e]) => f?.valid && e?.valid)
    .map(([f, e]) => f!.rps / e!.rps);
  return geometricMean(ratios) >= 1 ? 'fastify' : 'express';
}

async function benchDatabase(dbSpec: string, options: Options): Promise<DatabaseResult> {
  log(`preparing a fresh ${dbSpec === 'sqlite' ? 'SQLite' : dbSpec} database`);
  const main = await prepareDatabase(dbSpec, BENCH_DATA, '', log);
  const dropMain = () => main.scratch.drop();
  cleanups.push(dropMain);
  const servers: ServerProcess[] = [];
  const stopAll = () => Promise.all(servers.map((s) => s.stop())).then(() => undefined);
  cleanups.unshift(stopAll);
  try {
    const contenders: Contender[] = [];
    for (const adapter of options.adapters) {
      const server = await startTessera({ databaseUrl: main.scratch.url, adapter, profile: options.profile });
      servers.push(server);
      contenders.push(await contender(`tessera/${adapter}`, server, servers));
    }
    if (options.compareBuild || options.compareFlags) {
      for (const adapter of options.adapters) {
        const label = `other/${adapter}`;
        const server = await startTessera({
          databaseUrl: main.scratch.url,
          adapter,
          label,
          mainScript: options.compareBuild && resolve(options.compareBuild),
          start: options.compareFlags,
          profile: options.profile,
        });
        servers.push(server);
        contenders.push(await contender(label, server, servers));
      }
    }
    const tokenCheck = contenders[0]!.ctx.demoAuth !== undefined;
    const tokenNote = tokenCheck ? undefined : 'no token check: auth not landed (raw skips its token check too, so both do the same work)';
    if (tokenNote) log(tokenNote);
    // W0 puts the same bytes on the wire on every server: the reference servers send the headers Tessera sends.
    const reference = {
      databaseUrl: main.scratch.url,
      requireToken: tokenCheck,
      profile: options.profile,
      heartbeatHeaders: (await heartbeatOf(contenders[0]!.server.url)).headers,
    };
    if (options.adapters.includes('express')) {
      // Express 5 bare, beside Tessera on Express: what Express itself costs on W0 and W1.
      const bare = await ServerProcess.start(expressBareSpec(reference));
      servers.push(bare);
      const c = await contender(EXPRESS_BARE, bare, servers);
      c.serves = ['W0', 'W1'];
      contenders.push(c);
    }
    const lineItemWorkloads = LINE_ITEM_WORKLOADS.filter((id) => options.workloads.includes(id));
    if (lineItemWorkloads.length > 0) {
      // raw writing what the rules write, by hand: what W3, W7 and W8 cost without Tessera.
      const rules = await ServerProcess.start(rawRulesSpec(reference));
      servers.push(rules);
      const c = await contender(RAW_RULES, rules, servers);
      c.serves = lineItemWorkloads;
      contenders.push(c);
      const mismatch = await ruleWritesMismatch(contenders[0]!, c);
      if (mismatch) throw new Error(mismatch);
      log(`${RAW_RULES} writes the rows ${contenders[0]!.name}'s rules write for a line item, with the same totals`);
    }
    const raw = await ServerProcess.start(rawSpec(reference));
    servers.push(raw);
    const rawContender = await contender('raw', raw, servers);
    contenders.push(rawContender);
    const mismatches = await answerMismatches(contenders, rawContender);
    if (mismatches.length > 0) throw new Error(mismatches.join('\n'));
    log(`every server gives raw's W1 answer (columns, checksum, href path) and W0 answer (status, body, headers)`);

    const workloads = await runAbRounds(contenders, {
      workloads: options.workloads.map(workload),
      rounds: options.rounds,
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      connections: options.connections,
      log,
    });
    await stopAll();
    servers.length = 0;

    const judgedAdapter = fasterAdapter(workloads, options.adapters);
    const result: DatabaseResult = {
      database: main.scratch.version,
      kind: main.scratch.kind,
      servers: contenders.map((c) => c.name),
      tokenNote,
      workloads,
      judged: `tessera/${judgedAdapter}`,
    };
    if (options.storm) {
      log(`login storm on tessera/${judgedAdapter}`);
      result.storm = await runLoginStorm({
        databaseUrl: main.scratch.url,
        adapter: judgedAdapter,
        data: dataContext,
        seconds: options.stormSeconds,
        connections: options.connections,
        profile: options.profile,
        log,
      });
    }
    if (options.scaling) {
      const siblings = [10, options.scaleSiblings];
      const scaleData = { ...BENCH_DATA, customers: options.scaleCustomers, siblingOrders: siblings };
      log(
        `preparing the scaling database: ${options.scaleCustomers.toLocaleString('en-US')} customers, orders with ${siblings.join(' and ')} line items`,
      );
      const large = await prepareDatabase(dbSpec, scaleData, '_scale', log);
      cleanups.push(() => large.scratch.drop());
      try {
        result.scaling = await runScaling({
          adapter: judgedAdapter,
          smallUrl: main.scratch.url,
          smallData: dataContext,
          largeUrl: large.scratch.url,
          largeData: { ...dataContext, customers: options.scaleCustomers },
          siblingOrders: large.siblingOrderIds.map((id, i) => ({ id, siblings: siblings[i]! })),
          seconds: options.scaleSeconds,
          rounds: options.scaleRounds,
          connections: options.connections,
          log,
        });
      } finally {
        await large.scratch.drop();
      }
    }
    return result;
  } finally {
    await stopAll();
    await dropMain();
  }
}

const KIND_ORDER = ['sqlite', 'mysql', 'postgres'];

/** The latest full run of each database kind, as saved in bench/results/. */
function fullRuns(): ReportEntry[] {
  return readdirSync(OUT_DIR)
    .filter((f) => /^full-(sqlite|mysql|postgres)\.json$/.test(f))
    .map((f) => JSON.parse(readFileSync(join(OUT_DIR, f), 'utf8')) as ReportEntry)
    .sort((a, b) => KIND_ORDER.indexOf(a.result.kind) - KIND_ORDER.indexOf(b.result.kind));
}

function optionsOrExit(): Options {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  try {
    return parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(2);
  }
}

/** RESULTS.md from the saved full runs of every database. */
function writeResultsFile(): void {
  const all = fullRuns();
  writeFileSync(join(ROOT, 'bench', 'RESULTS.md'), formatReport(all, judgeTargets(all.map((e) => e.result))));
}

async function main(): Promise<void> {
  const options = optionsOrExit();
  if (options.rewriteResults) {
    writeResultsFile();
    log('rewrote bench/RESULTS.md from the saved full runs in bench/results/');
    return;
  }
  const results: DatabaseResult[] = [];
  for (const db of options.databases) results.push(await benchDatabase(db, options));
  const info: RunInfo = {
    date: new Date().toISOString(),
    node: process.version,
    machine: `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB memory, ${process.platform}`,
    mode: options.quick ? 'quick' : 'full',
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim().replace(/ --$/, ''),
    durationSeconds: options.durationSeconds,
    rounds: options.rounds,
    connections: options.connections,
    elapsedSeconds: (Date.now() - started) / 1000,
    loadAverage: { start: loadAtStart, end: loadavg()[0]! },
  };
  const entries = results.map((result) => ({ info, result }));
  mkdirSync(OUT_DIR, { recursive: true });
  const latest = formatReport(entries, judgeTargets(results));
  writeFileSync(join(OUT_DIR, 'latest.md'), latest);
  writeFileSync(join(OUT_DIR, 'latest.json'), JSON.stringify(entries, null, 2));
  if (options.writeResults) {
    // RESULTS.md shows the latest full run of every database measured on this machine, so a
    // SQLite run and a MariaDB run (each within the time budget) end up in one report.
    for (const entry of entries) writeFileSync(join(OUT_DIR, `full-${entry.result.kind}.json`), JSON.stringify(entry, null, 2));
    writeResultsFile();
  }
  process.stdout.write(`\n${latest}`);
  log(`done; report in ${options.writeResults ? 'bench/RESULTS.md and ' : ''}bench/results/latest.md`);
}

main().catch((error: unknown) => {
  log(`failed: ${(error as Error).stack ?? String(error)}`);
  void Promise.allSettled(cleanups.map((c) => c())).then(() => process.exit(1));
});
