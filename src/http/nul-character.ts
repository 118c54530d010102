import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';

/**
 * The NUL character is refused in every value and key a request carries (api-contract §4,
 * 400 / 4000): PostgreSQL cannot store it at all (its drivers fail the whole statement), and
 * the other databases would keep what PostgreSQL cannot, so one API would answer three ways.
 * Headers cannot carry it (Node's parser refuses them), a JSON body only escaped (see
 * `parseJsonBody`), and a URL only percent-encoded: `%00` anywhere in the raw URL, path or
 * query, names or values, is enough to refuse the request before any of it is decoded.
 */
export function nulInUrl(url: string | undefined): ApiError | undefined {
  if (url === undefined || (!url.includes('%00') && !url.includes('\u0000'))) return undefined;
  return new ApiError(ErrorCode.BAD_REQUEST, 'The URL may not contain the NUL character (%00).');
}

export function nulInBody(): ApiError {
  return new ApiError(ErrorCode.BAD_REQUEST, 'The request body may not contain the NUL character (\\u0000), in a value or a key.');
}
