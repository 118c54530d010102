import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ServerSpec {
  /** e.g. "tessera/fastify" or "raw" */
  name: string;
  /** The JavaScript file node runs. */
  script: string;
  env: Record<string, string>;
  /** Extra node flags, e.g. --cpu-prof. */
  nodeArgs?: string[];
  /** A GET path that answers 200 once the server is ready. */
  readyPath: string;
  /** Where the child's stdout and stderr go. */
  logFile: string;
  /** Working directory (Tessera reads an optional .env there); the harness's own by default. */
  cwd?: string;
}

/** `BENCH_PORTS=19300-19399` keeps the servers inside a range (a machine shared with others); otherwise the system picks. */
const PORT_RANGE = /^(\d+)-(\d+)$/.exec(process.env.BENCH_PORTS ?? '');
let nextPort = PORT_RANGE ? Number(PORT_RANGE[1]) : 0;

async function listenOnce(port: number): Promise<number | undefined> {
  const server = createServer();
  const bound = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (!bound) return undefined;
  const chosen = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return chosen;
}

/** A free TCP port on the loopback interface (within BENCH_PORTS when set, taken in turn). */
export async function freePort(): Promise<number> {
  if (!PORT_RANGE) return (await listenOnce(0))!;
  const first = Number(PORT_RANGE[1]);
  const size = Number(PORT_RANGE[2]) - first + 1;
  for (let i = 0; i < size; i++) {
    const port = first + ((nextPort++ - first) % size);
    if ((await listenOnce(port)) !== undefined) return port;
  }
  throw new Error(`no free port in BENCH_PORTS=${process.env.BENCH_PORTS}`);
}

/** Resident set size of a process in bytes, from /proc (Linux); undefined elsewhere or once it is gone. */
export function rssOf(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

const TICK_SECONDS = 0.01;

/** CPU time (user + system) a process has used so far, in seconds; NaN when unreadable. */
export function cpuSecondsOf(pid: number): number {
  try {
    // The fields after the command name (which may hold spaces) start after ")"; utime and stime are the 12th and 13th of those.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_SECONDS;
  } catch {
    return Number.NaN;
  }
}

/** Busy CPU time of the whole machine so far, in clock ticks (all cores; /proc/stat). */
function machineBusyTicks(): number | undefined {
  try {
    const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return user! + nice! + system! + irq! + softirq! + steal!;
  } catch {
    return undefined;
  }
}

/**
 * Waits until the machine is (nearly) idle, so that a run does not start while a server is
 * still working off the previous run's queue (bcrypt logins keep the thread pool busy after
 * the load stops), or while the database is still flushing. Gives up after `maxMs`: on a
 * shared machine other work may never stop, and the report then shows the noise.
 */
export async function waitForQuiet(maxMs = 3_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  let before = machineBusyTicks();
  if (before === undefined) return;
  while (Date.now() < deadline) {
    await sleep(100);
    const now = machineBusyTicks()!;
    // Clock ticks are 10 ms: at most 3 ticks in 100 ms is under a third of one core, machine-wide.
    if (now - before <= 3) return;
    before = now;
  }
}

/** Samples a process's RSS while load runs; the peak is what the report shows. */
export class RssSampler {
  private peak = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    intervalMs = 200,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  private sample(): void {
    this.peak = Math.max(this.peak, rssOf(this.pid) ?? 0);
  }

  /** Peak RSS in bytes; NaN when it could not be read. */
  stop(): number {
    clearInterval(this.timer);
    this.sample();
    return this.peak > 0 ? this.peak : Number.NaN;
  }
}

/** A server running as a child process of the harness. */
export class ServerProcess {
  private constructor(
    readonly spec: ServerSpec,
    readonly port: number,
    private readonly child: ChildProcess,
    private readonly exited: Promise<number | null>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.child.pid!;
  }

  static async start(spec: ServerSpec, port?: number, timeoutMs = 60_000): Promise<ServerProcess> {
    const chosen = port ?? (await freePort());
    const log = createWriteStream(spec.logFile, { flags: 'a' });
    const child = spawn(process.execPath, [...(spec.nodeArgs ?? []), spec.script], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...spec.env, PORT: String(chosen), HOST: '127.0.0.1' },
      cwd: spec.cwd ?? process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(log);
    child.stderr.pipe(log);
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code, signal) => {
        log.write(`\n[bench] ${spec.name} (pid ${child.pid}) exited: ${signal ? `signal ${signal}` : `code ${code}`}\n`);
        resolve(code);
      }),
    );
    const server = new ServerProcess(spec, chosen, child, exited);
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && server.ended === undefined) {
      try {
        const response = await fetch(`${server.url}${spec.readyPath}`);
        await response.arrayBuffer();
        if (response.ok) return server;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    child.kill('SIGKILL');
    throw new Error(`${spec.name} did not become ready${server.ended === undefined ? '' : ' (it exited)'}; see ${spec.logFile}`);
  }

  /** Undefined while it runs; how it ended otherwise (e.g. "signal SIGTERM" when something outside the harness stopped it). */
  get ended(): string | undefined {
    if (this.child.exitCode !== null) return `code ${this.child.exitCode}`;
    if (this.child.signalCode !== null) return `signal ${this.child.signalCode}`;
    return undefined;
  }

  /** The same server again, on the same port (after something outside the harness stopped it). */
  restart(): Promise<ServerProcess> {
    return ServerProcess.start(this.spec, this.port);
  }

  signal(name: NodeJS.Signals): void {
    this.child.kill(name);
  }

  /** SIGTERM, then SIGKILL if it has not exited within the grace time. */
  async stop(graceMs = 15_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}
