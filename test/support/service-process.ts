import { spawn, type ChildProcess } from 'node:child_process';
import { delimiter, dirname, join } from 'node:path';
import { freePort } from './free-port.js';

/** The built service (npm test builds it first), run as a real process. */
const MAIN = join(process.cwd(), 'dist', 'src', 'main.js');

export interface ServiceExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** When it exited, by `Date.now()`. */
  at: number;
}

export interface ServiceProcess {
  child: ChildProcess;
  port: number;
  /** Everything printed on standard output so far. */
  stdout(): string;
  exited: Promise<ServiceExit>;
  /** SIGKILL if it is still running (a test's safety net). */
  kill(): void;
}

/** Another way to start the service than `node dist/src/main.js` in this checkout (the image's entry command). */
export interface ServiceLaunch {
  /** The command and its arguments; `node` is the Node running the tests, found first on PATH. */
  argv: string[];
  cwd: string;
}

/**
 * Starts `node dist/src/main.js` (or `launch`) on a free loopback port with the given
 * environment and resolves once it is listening. A process still alive after `limitMs` is
 * killed, so a hang shows up as a late exit rather than a stuck suite.
 */
export async function startService(env: Record<string, string>, limitMs = 60_000, launch?: ServiceLaunch): Promise<ServiceProcess> {
  const service = await launchService(env, limitMs, launch);
  await service.listening;
  return service;
}

/** A service process from `launchService`: `listening` resolves once it listens, and rejects if it exits first. */
export interface LaunchedService extends ServiceProcess {
  listening: Promise<void>;
}

/** `startService` without waiting for the service to listen: for a test that acts during the boot. */
export async function launchService(env: Record<string, string>, limitMs = 60_000, launch?: ServiceLaunch): Promise<LaunchedService> {
  const { child, port, output } = await spawnService(env, launch);
  const safety = setTimeout(() => child.kill('SIGKILL'), limitMs);
  const exited = new Promise<ServiceExit>((resolve) => {
    child.on('exit', (code, signal) => {
      clearTimeout(safety);
      resolve({ code, signal, at: Date.now() });
    });
  });
  const listening = new Promise<void>((resolve, reject) => {
    const check = () => {
      if (output.stdout.includes('Tessera is listening')) resolve();
      else if (child.exitCode !== null || child.signalCode !== null)
        reject(new Error(`the service did not start:\n${output.stdout}\n${output.stderr}`));
      else setTimeout(check, 25);
    };
    check();
  });
  // A test that kills the process during its boot need not await `listening`.
  listening.catch(() => undefined);
  return { child, port, stdout: () => output.stdout, exited, kill: () => void child.kill('SIGKILL'), listening };
}

export interface FinishedService {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node dist/src/main.js` (or `launch`) with the given environment to its exit (a service that refuses to boot). */
export async function runServiceToExit(env: Record<string, string>, limitMs = 30_000, launch?: ServiceLaunch): Promise<FinishedService> {
  const { child, output } = await spawnService(env, launch);
  // A service that did boot is stopped, and its test then fails on the exit code.
  const watch = setInterval(() => {
    if (output.stdout.includes('Tessera is listening')) child.kill('SIGTERM');
  }, 25);
  const safety = setTimeout(() => child.kill('SIGKILL'), limitMs);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  clearInterval(watch);
  clearTimeout(safety);
  return { code, stdout: output.stdout, stderr: output.stderr };
}

/** `node dist/src/main.js` (or `launch`) on a free loopback port, its output collected as it comes. */
async function spawnService(env: Record<string, string>, launch?: ServiceLaunch) {
  const port = await freePort();
  const [command, ...args] = launch?.argv ?? [process.execPath, MAIN];
  const path = [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter);
  const child = spawn(command!, args, {
    cwd: launch?.cwd,
    env: { PATH: path, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info', BCRYPT_COST: '10', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (output.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output.stderr += d.toString()));
  return { child, port, output };
}
