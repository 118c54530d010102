import {
  Catch,
  HttpException,
  Inject,
  Optional,
  type ArgumentsHost,
  type ExceptionFilter,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Logger } from 'pino';
import { driverFactsOf } from '../database/errors/constraint-violations.js';
import { Database } from '../database/database.js';
import { DatabaseOutage } from '../database/connection/database-outage.js';
import { apiErrorFromDatabase, type ViolationFinder } from '../database/errors/database-errors.js';
import { ApiError } from '../common/api-error.js';
import { isClientAbort } from './client-abort.js';
import { bodyTooLarge } from './body-encoding.js';
import { ErrorCode } from '../common/error-codes.js';
import { LOGGER } from '../observability/logger.js';
import { rawRequestOf } from '../common/request-slot.js';
import { redactUrl, requestIdOf } from './request-context.js';

const BY_STATUS: Record<number, ErrorCode> = {
  400: ErrorCode.BAD_REQUEST,
  401: ErrorCode.NO_TOKEN,
  403: ErrorCode.FORBIDDEN,
  404: ErrorCode.NOT_FOUND,
  405: ErrorCode.NOT_FOUND,
  409: ErrorCode.CHECKSUM_MISMATCH,
  413: ErrorCode.BODY_TOO_LARGE,
  415: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  429: ErrorCode.TOO_MANY_LOGINS,
  503: ErrorCode.DATABASE_UNAVAILABLE,
};

const GENERIC_MESSAGE: Partial<Record<ErrorCode, string>> = {
  [ErrorCode.BAD_REQUEST]: 'The request is not valid.',
  [ErrorCode.NOT_FOUND]: 'No such resource or endpoint.',
  [ErrorCode.BODY_TOO_LARGE]: 'The request body is too large.',
  [ErrorCode.UNSUPPORTED_MEDIA_TYPE]: 'The request body must be application/json.',
};

/**
 * Turns any error into an `ApiError`. Nest's own HTTP exceptions keep their status;
 * database conditions map to the contract; anything else is an internal error whose
 * details stay in the log.
 */
export function toApiError(error: unknown, findViolation?: ViolationFinder): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HttpException) {
    const status = error.getStatus();
    // Express's body reader, past the limit in a body of unannounced length.
    if (status === 413) return bodyTooLarge();
    const code = BY_STATUS[status] ?? (status >= 500 ? ErrorCode.INTERNAL : ErrorCode.BAD_REQUEST);
    const response = error.getResponse() as { message?: unknown } | string;
    const detail = typeof response === 'object' && Array.isArray(response.message) ? response.message.join('; ') : undefined;
    return new ApiError(code, detail ?? GENERIC_MESSAGE[code] ?? 'The request failed.');
  }
  // Reading the request failed (Fastify's body reader sets a 4xx statusCode on the stream's error, e.g. the
  // client's abort, whose code ECONNRESET would otherwise pass for the database's): the client's doing.
  const status = (error as { statusCode?: unknown } | undefined)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = BY_STATUS[status] ?? ErrorCode.BAD_REQUEST;
    return new ApiError(code, GENERIC_MESSAGE[code] ?? 'The request failed.');
  }
  return apiErrorFromDatabase(error, findViolation) ?? new ApiError(ErrorCode.INTERNAL, 'Internal error.');
}

/** What is answered, should the connection still take it, to a body cut short by its client. */
const CLIENT_ABORT = new ApiError(ErrorCode.BAD_REQUEST, 'The request body ended before its announced length.');

/**
 * The one exception filter: every error leaves as the contract's JSON envelope. An internal error
 * is logged with its stack; a database outage once, however many requests it refuses (see
 * `DatabaseOutage`).
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter, OnApplicationShutdown {
  private readonly outage?: DatabaseOutage;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() @Inject(Database) private readonly database?: Database,
  ) {
    if (database) this.outage = new DatabaseOutage(logger, () => database.ping());
  }

  onApplicationShutdown(): void {
    this.outage?.stop();
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<unknown>();
    const response = http.getResponse<unknown>();
    const requestId = requestIdOf(request);
    // Before the database mapping, which would read the socket's ECONNRESET as an outage.
    if (isClientAbort(rawRequestOf(request))) {
      this.logClientAbort(request, requestId);
      this.adapterHost.httpAdapter.reply(response, CLIENT_ABORT.toBody(requestId), CLIENT_ABORT.statusCode);
      return;
    }
    const error = toApiError(exception, this.database ? (e) => this.database!.constraintViolationOf(e) : undefined);
    if (error.errorCode === ErrorCode.DATABASE_CONSTRAINT || error.errorCode === ErrorCode.DUPLICATE_KEY)
      this.logRefusal(exception, requestId);

    if (error.errorCode === ErrorCode.RULES_TOO_DEEP) {
      // A fault of the project's rules: whoever runs the service must hear of it.
      this.logger.error({ requestId, err: exception }, 'rules cascaded past the depth limit');
    }
    if (error.errorCode === ErrorCode.INTERNAL || error.errorCode === ErrorCode.DATABASE_UNAVAILABLE) {
      const raw = rawRequestOf(request);
      const where = { requestId, method: raw.method, path: redactUrl(raw.url ?? '') };
      if (error.errorCode === ErrorCode.INTERNAL) this.logger.error({ ...where, err: exception }, 'unhandled error');
      else if (this.outage) this.outage.refused(exception, where);
      else this.logger.error({ ...where, err: exception }, 'service unavailable');
    }
    const adapter = this.adapterHost.httpAdapter;
    for (const [name, value] of Object.entries(error.headers)) adapter.setHeader(response, name, value);
    adapter.reply(response, error.toBody(requestId), error.statusCode);
  }

  /**
   * What the database said about a refused write, for whoever runs the service: the driver's
   * code and the names it gave, never its message or detail (they hold the row's values).
   */
  private logRefusal(exception: unknown, requestId: string | undefined): void {
    if (!this.logger.isLevelEnabled('debug')) return;
    const { code, errno, table, column, constraint } = driverFactsOf(exception);
    if (code === undefined && errno === undefined) return;
    this.logger.debug({ requestId, code, errno, table, column, constraint }, 'the database refused the change');
  }

  /** Nobody is left to hear an answer, and nothing failed on our side: a debug line, no stack. */
  private logClientAbort(request: unknown, requestId: string | undefined): void {
    const raw = rawRequestOf(request);
    this.logger.debug(
      { requestId, method: raw.method, path: redactUrl(raw.url ?? '') },
      'the client closed the connection before its request body arrived',
    );
  }
}
