import type { IncomingMessage } from 'node:http';
import { ApiError } from '../common/api-error.js';
import { keyFromAuthorizationHeader, keyFromCredential } from '../http/authorization-header.js';
import { ErrorCode } from '../common/error-codes.js';
import { rawQueryValue } from '../http/request-context.js';

/**
 * The API key a request carries (api-contract §2): from `Authorization: <scheme> <key>[:n]`,
 * else from `?auth=<key>[:n]`, which counts only on GET and only when the project permits
 * it (401 / 4014 otherwise). Undefined when the request carries none. The parameter's name must
 * be exactly `auth` as sent: a near miss (`AUTH`, `%61uth`, `auth[]`, `%20auth`…) carries no
 * key, on either adapter, whatever their query parsers make of it (the log redacts it all the same).
 */
export function apiKeyOfRequest(request: IncomingMessage, permitAuthInUrl: boolean): string | undefined {
  const fromHeader = keyFromAuthorizationHeader(request.headers.authorization);
  if (fromHeader) return fromHeader;
  const inUrl = rawQueryValue(request, 'auth');
  if (inUrl === undefined) return undefined;
  if (!permitAuthInUrl) {
    throw new ApiError(
      ErrorCode.TOKEN_IN_URL_FORBIDDEN,
      'This project does not accept an auth token in the URL; send it in the Authorization header.',
    );
  }
  if (request.method !== 'GET') {
    throw new ApiError(ErrorCode.TOKEN_IN_URL_FORBIDDEN, 'An auth token in the URL is accepted on GET requests only.');
  }
  return keyFromCredential(inUrl);
}
