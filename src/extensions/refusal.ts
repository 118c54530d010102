import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';

/** The statuses project code may refuse a request with, and the code each answers (every one ends in 8). */
const REFUSAL_CODES = {
  400: ErrorCode.PROJECT_REFUSED,
  403: ErrorCode.PROJECT_REFUSED_FORBIDDEN,
  404: ErrorCode.PROJECT_REFUSED_NOT_FOUND,
  409: ErrorCode.PROJECT_REFUSED_CONFLICT,
  422: ErrorCode.PROJECT_REFUSED_UNPROCESSABLE,
} as const;

export type RefusalStatus = keyof typeof REFUSAL_CODES;

/** A refusal's message is shown to the client as it is, up to this many characters. */
const MESSAGE_LIMIT = 500;

/**
 * What project code (a request event, a function, a function resource) throws to refuse a request:
 * the client gets the usual error envelope with this status and message, and the code for it
 * (`400 → 4008`, `403 → 4038`, `404 → 4048`, `409 → 4098`, `422 → 4228`). The message is the
 * project's own words, shown as written: it must not hold what the caller may not read.
 *
 * ```ts
 * throw new Refusal(422, 'An order may not exceed 10,000.');
 * ```
 */
export class Refusal extends Error {
  constructor(
    readonly status: RefusalStatus,
    message: string,
  ) {
    super(message);
    this.name = 'Refusal';
  }

  /** The envelope's error, or undefined when `status` is none of the refusal statuses (the project's mistake: then a failure). */
  toApiError(): ApiError | undefined {
    const code = Object.hasOwn(REFUSAL_CODES, this.status) ? REFUSAL_CODES[this.status] : undefined;
    if (code === undefined) return undefined;
    const message = this.message;
    return new ApiError(code, message.length > MESSAGE_LIMIT ? `${message.slice(0, MESSAGE_LIMIT)}…` : message);
  }
}
