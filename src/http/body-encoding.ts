import type { IncomingMessage } from 'node:http';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;

/**
 * A JSON body must arrive as plain UTF-8 (RFC 8259 §8.1): a compressed body or another
 * charset is refused with 415 / 4150 before it is read. Express's body reader would inflate
 * gzip and refuse unknown charsets while Fastify's would do neither, so the two adapters
 * would answer the same request differently.
 */
export function bodyEncodingProblem(req: IncomingMessage): ApiError | undefined {
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    return new ApiError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'The request body must not be compressed (Content-Encoding).');
  }
  const charset = CHARSET.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    return new ApiError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'The request body must be UTF-8 JSON.');
  }
  return undefined;
}

/**
 * The answer to a body over BODY_LIMIT_BYTES, on both adapters. The rest of the body is not
 * read (Express's reader would read it all first, however long, and then keep the connection;
 * Fastify's stops and closes it), so the connection closes, and the answer says so.
 */
export function bodyTooLarge(): ApiError {
  return new ApiError(ErrorCode.BODY_TOO_LARGE, 'The request body is too large.', { Connection: 'close' });
}

/** A body whose Content-Length is over the limit is refused before any of it is read. */
export function announcedBodyTooLarge(req: IncomingMessage, limitBytes: number): ApiError | undefined {
  const length = req.headers['content-length'];
  return length !== undefined && Number(length) > limitBytes ? bodyTooLarge() : undefined;
}
