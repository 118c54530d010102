import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { obtainTokens } from './auth-step.js';
import { runLoad } from './load.js';
import type { LoopDelay } from './loop-delay-probe.js';
import type { AdapterName } from './options.js';
import type { StormResult } from './results.js';
import type { ServerProcess } from './server-process.js';
import { OUT_DIR, startTessera } from './servers.js';
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
  log: (line: string) => void;
}

/**
 * W1 with and without 50 connections logging in back to back, on a Tessera that measures
 * its own event-loop delay (bench/serve-tessera.ts). bcrypt must stay off the event loop.
 */
export async function runLoginStorm(options: StormOptions): Promise<StormResult> {
  const name = `tessera/${options.adapter}`;
  const file = join(OUT_DIR, `loop-delay-${process.pid}.json`);
  rmSync(file, { force: true });
  const server = await startTessera({ databaseUrl: options.databaseUrl, adapter: options.adapter, loopDelayFile: file, label: `${name}+loop-probe` });
  try {
    const tokens = await obtainTokens(server.url);
    if (tokens.kind === 'none') {
      return { server: name, logins: 0, loginsPerSecond: 0, loginErrors: 0, w1Alone: { rps: 0, p99: 0, loopP99: 0 }, w1DuringStorm: { rps: 0, p99: 0, errors: 0, loopP99: 0, loopMax: 0 }, skipped: tokens.reason };
    }
    const ctx: WorkloadContext = { ...options.data, demoAuth: tokens.demoAuth, samAuth: tokens.samAuth };
    const w1 = (seconds: number) => runLoad({ url: server.url, pid: server.pid, connections: options.connections, durationSeconds: seconds, requests: workload('W1').requests(ctx, 99) });
    await w1(2);
    let seq = (await loopDelay(server, file, 0)).seq;
    const alone = await w1(options.seconds);
    const aloneLoop = await loopDelay(server, file, seq);
    seq = aloneLoop.seq;
    const [during, logins] = await Promise.all([
      w1(options.seconds),
      runLoad({ url: server.url, pid: server.pid, connections: STORM_LOGINS, durationSeconds: options.seconds, requests: workload('W5').requests(ctx, 0) }),
    ]);
    const stormLoop = await loopDelay(server, file, seq);
    options.log(`login storm: W1 p99 ${alone.p99} → ${during.p99} ms, loop delay p99 ${aloneLoop.p99.toFixed(1)} → ${stormLoop.p99.toFixed(1)} ms, ${logins.requests} logins`);
    return {
      server: name,
      logins: logins.requests,
      loginsPerSecond: logins.rps,
      loginErrors: logins.errors + logins.non2xx,
      w1Alone: { rps: alone.rps, p99: alone.p99, loopP99: aloneLoop.p99 },
      w1DuringStorm: { rps: during.rps, p99: during.p99, errors: during.errors + during.non2xx, loopP99: stormLoop.p99, loopMax: stormLoop.max },
    };
  } finally {
    await server.stop();
    rmSync(file, { force: true });
  }
}
