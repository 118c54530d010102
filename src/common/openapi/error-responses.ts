import { STATUS_CODES } from 'node:http';
import { ErrorCode, httpStatusOf } from '../error-codes.js';
import { jsonContent, ref, type JsonObject } from './openapi-types.js';

/** Every error code, from the one enum, so the document cannot drift from what the service answers. */
const CODES: ErrorCode[] = Object.values(ErrorCode).filter((v): v is ErrorCode => typeof v === 'number');

const describeCode = (code: ErrorCode): string => `${code} ${ErrorCode[code]}`;

function codesOf(status: number): ErrorCode[] {
  return CODES.filter((code) => httpStatusOf(code) === status);
}

/** The name of the shared response for one HTTP status, e.g. `Error400`. */
const responseName = (status: number): string => `Error${status}`;

/** The error envelope of api-contract §4. */
export function errorSchema(): JsonObject {
  return {
    type: 'object',
    description: 'Every error. No stack traces, SQL or driver text ever appear in it.',
    required: ['statusCode', 'errorCode', 'errorMessage'],
    properties: {
      statusCode: { type: 'integer', description: 'The HTTP status, repeated.' },
      errorCode: {
        type: 'integer',
        enum: CODES,
        description: `What went wrong; its first three digits are the HTTP status. ${CODES.map(describeCode).join(', ')}.`,
      },
      errorMessage: { type: 'string', description: "For people; a rule constraint's failure carries the rule's message." },
      requestId: { type: 'string', description: 'Only on 5xx answers: the request id of the log line (also in the X-Request-Id header).' },
    },
  };
}

/** One shared response per HTTP status that errors use, each naming the codes it carries. */
export function errorResponses(): Record<string, JsonObject> {
  const statuses = [...new Set(CODES.map(httpStatusOf))];
  return Object.fromEntries(
    statuses.map((status) => {
      const codes = codesOf(status);
      const response: JsonObject = {
        description: `${STATUS_CODES[status] ?? 'Error'}: ${codes.map(describeCode).join(', ')}.`,
        content: jsonContent({
          allOf: [ref('schemas', 'Error')],
          properties: { statusCode: { const: status }, errorCode: { enum: codes } },
        }),
      };
      if (status === 409)
        response.headers = {
          'Retry-After': { description: 'With 4093 only: seconds after which the write may get through.', schema: { type: 'integer' } },
        };
      if (status === 429)
        response.headers = { 'Retry-After': { description: 'Seconds until logins are accepted again.', schema: { type: 'integer' } } };
      if (status === 503)
        response.headers = {
          'Retry-After': { description: 'With 5032: seconds until the logins in progress are through.', schema: { type: 'integer' } },
        };
      return [responseName(status), response];
    }),
  );
}

/**
 * The error answers of an operation: the given statuses plus those any operation may give: 400
 * (a bad Host or percent-escape, refused before routing), 414 (URL over MAX_URL_BYTES), 500, 503.
 */
export function errorRefs(...statuses: number[]): Record<string, JsonObject> {
  const all = [...new Set([...statuses, 400, 414, 500, 503])].sort((a, b) => a - b);
  return Object.fromEntries(all.map((status) => [String(status), ref('responses', responseName(status))]));
}
