import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { ApiError } from '../common/api-error.js';
import type { SecurityHeaders } from './security-headers.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Answers with the error envelope on a response no framework has touched (a request refused
 * before routing), with the headers every answer carries. HEAD answers keep the headers and
 * lose the body, as Node does for any HEAD response.
 */
export function sendErrorResponse(res: ServerResponse, error: ApiError, headers: SecurityHeaders, requestId?: string): void {
  const body = JSON.stringify(error.toBody(requestId));
  headers.applyTo(res);
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name.toLowerCase(), value);
  res.setHeader('content-type', JSON_TYPE);
  res.setHeader('content-length', Buffer.byteLength(body));
  res.statusCode = error.statusCode;
  res.end(body);
}

/**
 * The whole HTTP/1.1 message for a connection whose request Node could not parse: nothing
 * but the socket is left, so the status line and headers are written by hand. The connection
 * closes after it, as the request's end cannot be found.
 */
export function rawErrorResponse(error: ApiError, headers: SecurityHeaders, requestId: string): string {
  const body = JSON.stringify(error.toBody(requestId));
  const lines = [
    `HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode] ?? 'Error'}`,
    ...headers.entries.map(([name, value]) => `${name}: ${value}`),
    ...Object.entries(error.headers).map(([name, value]) => `${name.toLowerCase()}: ${value}`),
    `x-request-id: ${requestId}`,
    `content-type: ${JSON_TYPE}`,
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
