import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { obtainTokens } from './auth-step.js';
import { runLoad } from './load.js';
import type { LoopDelay } from './loop-delay-probe.js';
import type { AdapterName } from './options.js';
import type { StormMeasure, StormResult } from './results.js';
import { ServerProcess, waitForQuiet } from './server-process.js';
import { OUT_DIR, rawSpec, startTessera } from './servers.js';
import { workload, type WorkloadContext } from './workloads.js';

const STORM_LOGINS = 50;

/** Asks the server for its loop-delay histogram since the last ask (SIGUSR2) and waits for the file. */
async function loopDelay(server: ServerProcess, file: string, after: number): Promise<LoopDelay> {
  server.signal('SIGUSR2');
  for (let i = 0; i < 100; i++) {
    try {
      const report = JSON.parse(readFileSync(file, 'utf8')) as LoopDelay;
      if (report.seq > after) return report;
    } catch {
      // not written yet
    }
    await sleep(20);
  }
  throw new Error('the server did not write its event-loop delay');
}

export interface StormOptions {
  databaseUrl: string;
  adapter: AdapterName;
  data: Pick<WorkloadContext, 'customers' | 'orders' | 'products'>;
  seconds: number;
  connections: number;
  profile?: boolean;
  log: (line: string) => void;
}

/** W1 alone, then W1 while 50 connections log in back to back, on one server that measures its own event-loop delay. */
async function stormOn(
  server: ServerProcess,
  file: string,
  data: StormOptions['data'],
  options: StormOptions,
): Promise<StormMeasure | string> {
  const tokens = await obtainTokens(server.url);
  if (tokens.kind === 'none') return tokens.reason;
  const ctx: WorkloadContext = { ...data, demoAuth: tokens.demoAuth, samAuth: tokens.samAuth };
  const w1 = (seconds: number) =>
    runLoad({
      url: server.url,
      pid: server.pid,
      connections: options.connections,
      durationSeconds: seconds,
      requests: workload('W1').requests(ctx, 99),
    });
  await w1(2);
  await waitForQuiet();
  let seq = (await loopDelay(server, file, 0)).seq;
  const alone = await w1(options.seconds);
  const aloneLoop = await loopDelay(server, file, seq);
  seq = aloneLoop.seq;
  await waitForQuiet();
  await loopDelay(server, file, seq).then((r) => (seq = r.seq));
  const [during, logins] = await Promise.all([
    w1(options.seconds),
    runLoad({
      url: server.url,
      pid: server.pid,
      connections: STORM_LOGINS,
      durationSeconds: options.seconds,
      requests: workload('W5').requests(ctx, 0),
    }),
  ]);
  const stormLoop = await loopDelay(server, file, seq);
  options.log(
    `login storm on ${server.spec.name}: W1 p99 ${alone.p99} → ${during.p99} ms, loop delay p99 ${aloneLoop.p99.toFixed(1)} → ${stormLoop.p99.toFixed(1)} ms, ${logins.requests} logins`,
  );
  return {
    logins: logins.requests,
    loginsPerSecond: logins.rps,
    loginErrors: logins.errors + logins.non2xx,
    w1Alone: { rps: alone.rps, p99: alone.p99, loopP99: aloneLoop.p99 },
    w1DuringStorm: {
      rps: during.rps,
      p99: during.p99,
      errors: during.errors + during.non2xx,
      loopP99: stormLoop.p99,
      loopMax: stormLoop.max,
    },
  };
}

/**
 * The login storm on Tessera, run through bench/serve-tessera.ts (Tessera plus an event-loop
 * probe in the same process), and the same storm on raw for reference: bcrypt must stay off
 * the event loop, and what raw shows is what the machine allows.
 */
export async function runLoginStorm(options: StormOptions): Promise<StormResult> {
  const name = `tessera/${options.adapter}`;
  const file = join(OUT_DIR, `loop-delay-${process.pid}.json`);
  const run = async (start: () => Promise<ServerProcess>): Promise<StormMeasure | string> => {
    rmSync(file, { force: true });
    const server = await start();
    try {
      return await stormOn(server, file, options.data, options);
    } finally {
      await server.stop();
      rmSync(file, { force: true });
    }
  };
  const tessera = await run(() =>
    startTessera({
      databaseUrl: options.databaseUrl,
      adapter: options.adapter,
      loopDelayFile: file,
      label: `${name}+loop-probe`,
      profile: options.profile,
    }),
  );
  if (typeof tessera === 'string') return { server: name, skipped: tessera };
  const raw = await run(() =>
    ServerProcess.start(rawSpec({ databaseUrl: options.databaseUrl, requireToken: true, profile: options.profile, loopDelayFile: file })),
  );
  return { server: name, tessera, raw: typeof raw === 'string' ? undefined : raw };
}
