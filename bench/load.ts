import autocannon, { type RequestSpec } from 'autocannon';
import { RssSampler } from './server-process.js';

/** One load run against one server. Latencies in milliseconds, RSS in bytes. */
export interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  non2xx: number;
  rssPeak: number;
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
    };
  } finally {
    rss.stop();
  }
}
