import type { Logger } from 'pino';
import { driverFactsOf } from '../errors/constraint-violations.js';

/** How often the database is asked, during an outage, whether it answers again. */
export const OUTAGE_PROBE_MS = 1000;

/** Where a refused request came from, for the one line that says the database is lost. */
export interface RefusedRequest {
  requestId?: string;
  method?: string;
  path?: string;
}

/**
 * The log of database outages: one line when the database is lost (the first request refused
 * with 503 / 5030, with its driver code; its stack once, at debug), none for the requests refused
 * after it, and one when the database answers again, with how many were refused and for how long.
 * While lost, the database is pinged every OUTAGE_PROBE_MS (one ping at a time), so the line that
 * says it is back comes whether requests come or not.
 */
export class DatabaseOutage {
  private since?: number;
  private refusedCount = 0;
  private probe?: NodeJS.Timeout;
  private probing = false;

  constructor(
    private readonly logger: Logger,
    private readonly ping: () => Promise<void>,
  ) {}

  /** Whether the database is lost (a request was refused, and no ping has got through since). */
  get lost(): boolean {
    return this.since !== undefined;
  }

  /** A request was answered 503 / 5030: the database could not be reached. */
  refused(error: unknown, request: RefusedRequest): void {
    this.refusedCount += 1;
    if (this.since !== undefined) return;
    this.since = performance.now();
    const { code, errno } = driverFactsOf(error);
    this.logger.error(
      { ...request, code, errno },
      'database unavailable: requests that need it are answered 503 / 5030 until it answers again',
    );
    this.logger.debug({ requestId: request.requestId, err: error }, 'database unavailable: the error that began the outage');
    this.probe = setInterval(() => this.probeOnce(), OUTAGE_PROBE_MS);
    this.probe.unref();
  }

  /** Stops pinging (the service is shutting down). */
  stop(): void {
    clearInterval(this.probe);
    this.probe = undefined;
  }

  private probeOnce(): void {
    if (this.probing || this.since === undefined) return;
    this.probing = true;
    this.ping().then(
      () => {
        this.probing = false;
        this.back();
      },
      () => {
        this.probing = false;
      },
    );
  }

  private back(): void {
    if (this.since === undefined) return;
    const seconds = Math.round((performance.now() - this.since) / 100) / 10;
    const refused = this.refusedCount;
    this.stop();
    this.since = undefined;
    this.refusedCount = 0;
    this.logger.warn({ refused, seconds }, `database available again after ${seconds} s; ${refused} requests were answered 503 / 5030`);
  }
}
