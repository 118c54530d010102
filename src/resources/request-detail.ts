import type { Logger } from 'pino';
import { requestIdOf } from '../http/request-context.js';

/**
 * LAC's `logging` / `debug` URL parameters: "sets the logging levels for this request only". A request that
 * asks (`logging=debug`, `finer` or `finest`, for any area, or `debug=true`) gets debug lines of its own, tagged
 * with its request id, whatever the service's log level; no other request logs more. They say what Tessera did,
 * never with what: the endpoint, the resource, the names of the parameters given, and how it answered (rows
 * and whether more follow; for a write, how many of the rows the caller may read each verb touched on each
 * resource), with the time taken. No parameter value, row value, key or SQL parameter is written, so the lines
 * hold neither secrets nor values the caller could not read; the request line (request-context.ts) already
 * logs the URL, its `auth` value redacted.
 */
export class RequestDetail {
  private readonly started = process.hrtime.bigint();

  private constructor(private readonly log: Logger) {}

  /** The request's detail logger when it asked for one (`wanted`), having logged what was asked; else undefined. */
  static begin(
    logger: Logger,
    request: unknown,
    wanted: boolean,
    endpoint: string,
    resource: string,
    query: Record<string, unknown>,
  ): RequestDetail | undefined {
    if (!wanted) return undefined;
    // A child at debug: this request's lines are written even when the service logs at info or above.
    const log = logger.child({ requestId: requestIdOf(request), detail: true }, { level: 'debug' });
    log.debug({ endpoint, resource, parameters: Object.keys(query).sort() }, 'request detail: asked');
    return new RequestDetail(log);
  }

  /** How a read answered. */
  read(rows: number, more: boolean): void {
    this.log.debug({ rows, more, durationMs: this.elapsed() }, 'request detail: answered');
  }

  /** How a write answered: the rows of its txsummary (those the caller may read) per resource and verb. */
  wrote(entries: ReadonlyArray<{ resource: { name: string }; verb: string }>): void {
    const touched: Record<string, number> = {};
    for (const entry of entries) {
      const key = `${entry.resource.name} ${entry.verb}`;
      touched[key] = (touched[key] ?? 0) + 1;
    }
    this.log.debug({ touched, durationMs: this.elapsed() }, 'request detail: answered');
  }

  /** A refusal or failure, by its code only (the message may quote request text). */
  failed(error: unknown): void {
    const code = (error as { errorCode?: unknown }).errorCode;
    this.log.debug({ errorCode: typeof code === 'number' ? code : undefined, durationMs: this.elapsed() }, 'request detail: failed');
  }

  private elapsed(): number {
    return Number(process.hrtime.bigint() - this.started) / 1e6;
  }
}
