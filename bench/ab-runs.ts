import { runLoad, type Measurement } from './load.js';
import { describeProbe, probe } from './preflight.js';
import { NOT_SERVED, type WorkloadResult } from './results.js';
import { waitForQuiet, type ServerProcess } from './server-process.js';
import { summarize } from './summary.js';
import type { Workload, WorkloadContext, WorkloadId } from './workloads.js';

export interface Contender {
  name: string;
  server: ServerProcess;
  ctx: WorkloadContext;
  /** The workloads it serves, when not all of them (express-bare: W0 and W1); the others are not run on it. */
  serves?: readonly WorkloadId[];
  /** Brings the server back (new process, new tokens) if something outside the harness stopped it. */
  revive: () => Promise<void>;
}

export interface AbOptions {
  workloads: Workload[];
  rounds: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  log: (line: string) => void;
}

const fmt = (m: Measurement): string =>
  `${Math.round(m.rps).toLocaleString('en-US')} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms, server CPU ${Math.round(m.cpuMicros)} µs/req${m.errors || m.non2xx ? `, ${m.errors} errors, ${m.non2xx} non-2xx` : ''}`;

/**
 * Every workload on every contender, in rounds; within a round the contenders take turns
 * on each workload, in reverse order every other round, so drift (JIT, caches, data growth
 * from the write workloads) falls on all of them alike.
 */
export async function runAbRounds(contenders: Contender[], options: AbOptions): Promise<WorkloadResult[]> {
  const results: WorkloadResult[] = [];
  const runnable = new Map<string, boolean>();
  const key = (w: Workload, c: Contender): string => `${w.id}\u0000${c.name}`;

  for (const w of options.workloads) {
    const result: WorkloadResult = { id: w.id, title: w.title, cells: {}, notes: {} };
    for (const c of contenders) {
      if (c.serves && !c.serves.includes(w.id)) {
        result.notes[c.name] = NOT_SERVED;
        runnable.set(key(w, c), false);
        continue;
      }
      const seen = await probe(c.server.url, w, c.ctx);
      const { ok, note } = describeProbe(w, seen);
      const missingAuth = !ok && seen.status === 404 && w.id === 'W5';
      result.notes[c.name] = missingAuth ? 'not run: auth not landed' : note;
      runnable.set(key(w, c), ok);
      if (!ok) options.log(`${w.id} ${c.name}: not run (${result.notes[c.name]})`);
    }
    results.push(result);
  }

  const runs = new Map<string, Measurement[]>();
  const restarts = new Map<string, string[]>();
  const drive = async (w: Workload, c: Contender, seconds: number, seed: number): Promise<Measurement> => {
    const ended = c.server.ended;
    if (ended) {
      // A shared machine: another session's cleanup has been seen to stop these servers. Say so, and go on.
      options.log(`${c.name} is gone (${ended}), not stopped by the benchmark; restarting it`);
      await c.revive();
      restarts.set(c.name, [...(restarts.get(c.name) ?? []), ended]);
    }
    await waitForQuiet();
    return runLoad({
      url: c.server.url,
      pid: c.server.pid,
      connections: options.connections,
      durationSeconds: seconds,
      requests: w.requests(c.ctx, seed),
    });
  };

  if (options.warmupSeconds > 0) {
    options.log(`warming up every server on every workload (${options.warmupSeconds} s each)`);
    for (const w of options.workloads) {
      for (const c of contenders) if (runnable.get(key(w, c))) await drive(w, c, options.warmupSeconds, 7);
    }
  }

  for (let round = 0; round < options.rounds; round++) {
    for (const [wi, w] of options.workloads.entries()) {
      const order = round % 2 === 0 ? contenders : [...contenders].reverse();
      for (const c of order) {
        if (!runnable.get(key(w, c))) continue;
        const m = await drive(w, c, options.durationSeconds, 1000 * (round + 1) + wi);
        options.log(`round ${round + 1} ${w.id} ${c.name}: ${fmt(m)}`);
        const list = runs.get(key(w, c)) ?? [];
        list.push(m);
        runs.set(key(w, c), list);
      }
    }
  }

  for (const [wi, w] of options.workloads.entries()) {
    for (const c of contenders) {
      const list = runs.get(key(w, c));
      if (list) results[wi]!.cells[c.name] = summarize(list);
    }
  }
  for (const [name, endings] of restarts) {
    for (const w of results) {
      if (w.notes[name] === NOT_SERVED) continue;
      const note = `server restarted ${endings.length}× during the rounds (stopped from outside: ${endings.join(', ')})`;
      w.notes[name] = [w.notes[name], note].filter(Boolean).join('; ');
    }
  }
  return results;
}
