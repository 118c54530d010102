import { Worker } from 'node:worker_threads';

/**
 * Kills the process after `ms` from a thread of its own, unless it has ended by then. The main
 * thread's own deadline is a timer, which cannot fire while that thread is stuck in something
 * synchronous (a log write to a pipe nobody drains, a runaway loop); this one still does. The
 * thread is unref'd: it never keeps a process that is done from exiting.
 */
export function startExitWatchdog(ms: number): void {
  const delay = Math.max(0, Math.trunc(ms));
  try {
    const worker = new Worker(`setTimeout(() => process.kill(${process.pid}, 'SIGKILL'), ${delay});`, { eval: true });
    worker.unref();
    worker.on('error', () => undefined);
  } catch {
    // No thread to spare: the main thread's deadline still stands.
  }
}
