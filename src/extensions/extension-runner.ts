import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { settleWithin } from '../common/settle-within.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { LOGGER } from '../observability/logger.js';
import { Refusal } from './refusal.js';

/** One extension's run: what it is called in messages and logs, and its own time limit when it declares one. */
export interface ExtensionCall {
  /** `function giveRaise`, `request event limitOrderTotal`: named in the 503 and in the log. */
  name: string;
  /** Milliseconds; EXTENSION_TIMEOUT_MS when absent. */
  timeoutMs?: number;
  /** The request's id, for the log line of a failure. */
  requestId?: string;
}

/**
 * Runs project code (functions, function resources, request and response events) the one way:
 * - within its time limit: past it the client gets 503 / 5033, and `signal` aborts, so the host
 *   it was given refuses every further call (a write in progress rolls back with its transaction);
 * - a `Refusal` it throws becomes the client's error envelope with the refusal's status;
 * - an `ApiError` reaches the client as it is (a 403 of the data it asked for, a rule's 422), and so does
 *   any error of Tessera's own work it awaited (`passThrough`: a database refusal, an outage);
 * - anything else is the project's bug: logged with its stack at error level, answered 500 / 5002
 *   naming the extension, never with its message (it may hold values or secrets).
 */
@Injectable()
export class ExtensionRunner {
  private readonly tesseras = new WeakSet<object>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * `work` is given `signal`, which makes the run's AbortSignal when first called (an already aborted one after the
   * time limit): most extensions never read it, and a controller per call costs more than a small extension does.
   */
  async run<T>(call: ExtensionCall, work: (signal: () => AbortSignal) => T | PromiseLike<T>): Promise<Awaited<T>> {
    const abort = new LazyAbort();
    const limit = call.timeoutMs ?? this.config.api.extensionTimeoutMs;
    const settled = await settleWithin(limit, () => work(abort.signal));
    if (settled.status === 'ok') return settled.value;
    abort.abort();
    if (settled.status === 'timeout') {
      this.logger.warn({ requestId: call.requestId, extension: call.name, timeoutMs: limit }, 'extension ran out of time');
      throw new ApiError(ErrorCode.EXTENSION_TIMEOUT, `The ${call.name} did not finish within ${limit} ms.`);
    }
    throw this.answerFor(call, settled.error);
  }

  /**
   * Tessera's own work done for an extension (the host's reads and writes): its errors reach the client
   * as they would without the extension (a database refusal is 4221, an outage 503 / 5030), not as the extension's failure.
   */
  async passThrough<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      if (typeof error === 'object' && error !== null) this.tesseras.add(error);
      throw error;
    }
  }

  /** What the client is told of an error the extension ended with. */
  private answerFor(call: ExtensionCall, error: unknown): unknown {
    if (error instanceof Refusal) {
      const refused = error.toApiError();
      if (refused) return refused;
    }
    if (error instanceof ApiError || (typeof error === 'object' && error !== null && this.tesseras.has(error))) return error;
    this.logger.error({ requestId: call.requestId, extension: call.name, err: error }, 'extension failed');
    return new ApiError(ErrorCode.EXTENSION_FAILED, `The ${call.name} failed; the server log has the details.`);
  }
}

/** An AbortController made on the first call of `signal`; `abort` before then makes it aborted from the start. */
class LazyAbort {
  private controller: AbortController | undefined;
  private aborted = false;

  readonly signal = (): AbortSignal => {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort();
    }
    return this.controller.signal;
  };

  abort(): void {
    this.aborted = true;
    this.controller?.abort();
  }
}
