import { ErrorCode, httpStatusOf } from './error-codes.js';

/** The JSON body of every error response (api-contract §4). */
export interface ErrorBody {
  statusCode: number;
  errorCode: number;
  errorMessage: string;
  requestId?: string;
}

/**
 * A domain error with a code from `ErrorCode`. The global filter turns it into the
 * error envelope; its message is shown to the client, so it must never carry SQL,
 * driver text or secrets.
 */
export class ApiError extends Error {
  readonly statusCode: number;

  constructor(
    readonly errorCode: ErrorCode,
    message: string,
    /** Extra response headers, such as Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = httpStatusOf(errorCode);
  }

  toBody(requestId?: string): ErrorBody {
    const body: ErrorBody = {
      statusCode: this.statusCode,
      errorCode: this.errorCode,
      errorMessage: this.message,
    };
    if (requestId && this.statusCode >= 500) body.requestId = requestId;
    return body;
  }
}
