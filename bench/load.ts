import autocannon, { type RequestSpec } from 'autocannon';
import { cpuSecondsOf, RssSampler } from './server-process.js';

/** One load run against one server. Latencies in milliseconds, RSS in bytes. */
export interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  non2xx: number;
  rssPeak: number;
  /**
   * Server CPU time (user + system) per completed request, in microseconds. Unlike req/s it
   * barely moves when other work shares the machine, so it is the better number for
   * comparing two builds of the same server.
   */
  cpuMicros: number;
}

export interface LoadOptions {
  url: string;
  /** Sampled for RSS while the load runs. */
  pid: number;
  connections: number;
  durationSeconds: number;
  requests: RequestSpec[];
}

/** Drives load with autocannon for a fixed time, sampling the server's RSS meanwhile. */
export async function runLoad(options: LoadOptions): Promise<Measurement> {
  const rss = new RssSampler(options.pid);
  const cpuBefore = cpuSecondsOf(options.pid);
  try {
    const result = await autocannon({
      url: options.url,
      connections: options.connections,
      duration: options.durationSeconds,
      timeout: 30,
      requests: options.requests,
    });
    const completed = result.latency.totalCount ?? result.requests.total;
    return {
      rps: completed / Math.max(result.duration, 0.001),
      p50: result.latency.p50,
      p99: result.latency.p99,
      requests: completed,
      // autocannon counts timeouts among errors already.
      errors: result.errors,
      non2xx: result.non2xx,
      rssPeak: rss.stop(),
      cpuMicros: ((cpuSecondsOf(options.pid) - cpuBefore) * 1e6) / Math.max(completed, 1),
    };
  } finally {
    rss.stop();
  }
}
