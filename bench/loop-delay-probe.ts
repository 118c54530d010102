import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** What a server's event loop did between two SIGUSR2 signals, in milliseconds. */
export interface LoopDelay {
  seq: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

/**
 * Measures the event-loop delay inside the server process and writes it to `file` on every
 * SIGUSR2, then starts a fresh histogram. The harness signals once before a window and once
 * after, so the file then describes exactly that window. No endpoint is involved.
 */
export function installLoopDelayProbe(file: string): void {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  let seq = 0;
  process.on('SIGUSR2', () => {
    const ms = (ns: number): number => ns / 1e6;
    const report: LoopDelay = {
      seq: ++seq,
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      mean: ms(histogram.mean),
    };
    writeFileSync(file, JSON.stringify(report));
    histogram.reset();
  });
}
