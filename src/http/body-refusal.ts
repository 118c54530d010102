import type { IncomingMessage } from 'node:http';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { announcedBodyTooLarge, bodyEncodingProblem } from './body-encoding.js';
import { readsAsJson, untypedBodyAllowed } from './json-body.js';

/** The methods whose body is read. */
export const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** What decides, before any of a body is read, whether it is refused. */
export interface BodyRules {
  limitBytes: number;
  /** CORS_ORIGINS, whose pages may send a body without Content-Type (see `untypedBodyAllowed`). */
  corsOrigins: ReadonlySet<string>;
}

export function bodyRulesOf(http: { bodyLimitBytes: number; corsOrigins: readonly string[] }): BodyRules {
  return { limitBytes: http.bodyLimitBytes, corsOrigins: new Set(http.corsOrigins) };
}

/** A body is present when the client announced one. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** Why a request's body is refused before any of it is read, or undefined. The same on both adapters. */
export function bodyRefusal(req: IncomingMessage, rules: BodyRules): ApiError | undefined {
  if (!BODY_METHODS.has(req.method ?? '') || !hasBody(req)) return undefined;
  const type = req.headers['content-type'];
  if (!readsAsJson(type)) {
    return new ApiError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'The request body must be application/json.');
  }
  if (type === undefined && !untypedBodyAllowed(req.headers, rules.corsOrigins)) {
    return new ApiError(
      ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      'A body without Content-Type is read as JSON only from clients other than browsers on another site: send Content-Type: application/json.',
    );
  }
  return bodyEncodingProblem(req) ?? announcedBodyTooLarge(req, rules.limitBytes);
}
