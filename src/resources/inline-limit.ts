import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import type { ResourceColumn } from '../data/resource-registry.js';

/** LAC's default `inlinelimit`: text longer than this many characters (bytes longer than this many bytes) is sent as a link. */
export const INLINE_LIMIT_DEFAULT = 2000;
const INLINE_LIMIT_MAX = 1_000_000_000;

/**
 * The request's `inlinelimit` (LAC): how long a text value may be and still be sent inline,
 * in characters. Absent: 2000.
 *
 * @throws ApiError 400 / 4000 when it is not a whole number from 0 to 1000000000, or given twice.
 */
export function inlineLimitOf(query: Record<string, unknown>): number {
  const value = query.inlinelimit;
  if (value === undefined || value === '') return INLINE_LIMIT_DEFAULT;
  if (typeof value !== 'string' || !/^\d{1,10}$/.test(value) || Number(value) > INLINE_LIMIT_MAX) {
    throw new ApiError(ErrorCode.BAD_REQUEST, `Query parameter "inlinelimit" must be a whole number from 0 to ${INLINE_LIMIT_MAX}.`);
  }
  return Number(value);
}

/** Whether a column's values can be longer than `limit`: text or bytes without a declared length, or with a longer one. */
export function mayExceed(column: ResourceColumn, limit: number): boolean {
  return (column.kind === 'string' || column.kind === 'binary') && (column.length === undefined || column.length > limit);
}

/**
 * A JSON value as sent under `inlinelimit`: the value itself, or, for text longer than `limit`
 * characters (code points), `{ "@metadata": { "href": <the value's URL>, "length": <characters> } }`,
 * whose href answers the whole value (`GET <row href>/<attribute>`).
 */
export function inlined(value: unknown, limit: number, valueHref: () => string, binary = false): unknown {
  if (binary) return inlinedBytes(value, limit, valueHref);
  if (typeof value !== 'string' || value.length <= limit) return value;
  let length = 0;
  for (const _ of value) length++;
  return length <= limit ? value : { '@metadata': { href: valueHref(), length } };
}

/**
 * Bytes (`toJson`'s `{type: "base64", length, value}`) as LAC sends them under `inlinelimit`: inline
 * up to `limit` bytes, else `{"type": "base64", "length": <bytes>, "url": <the value's URL>}`, whose
 * GET answers the bytes themselves.
 */
function inlinedBytes(value: unknown, limit: number, valueHref: () => string): unknown {
  if (value === null || typeof value !== 'object') return value;
  const { length } = value as { length: number };
  return length <= limit ? value : { type: 'base64', length, url: valueHref() };
}
