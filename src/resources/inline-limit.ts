import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import type { ResourceColumn } from '../data/resource-registry.js';
import { excerpt } from '../data/query/limits.js';

/** LAC's default `inlinelimit`: text longer than this many characters (bytes longer than this many bytes) is sent as a link. */
export const INLINE_LIMIT_DEFAULT = 2000;
const INLINE_LIMIT_MAX = 1_000_000_000;
/** `deferred` / `inline` entries a request may name, all repetitions together. */
const MAX_NAMED = 100;

/**
 * The request's `inlinelimit` (LAC): how long a text value may be and still be sent inline,
 * in characters. Absent: `fallback` (2000 on GETs). `-1`: no limit, every value inline.
 *
 * @throws ApiError 400 / 4000 when it is not -1 or a whole number from 0 to 1000000000, or given twice.
 */
export function inlineLimitOf(query: Record<string, unknown>, fallback = INLINE_LIMIT_DEFAULT): number {
  const value = query.inlinelimit;
  if (value === undefined || value === '') return fallback;
  if (value === '-1') return Infinity;
  if (typeof value !== 'string' || !/^\d{1,10}$/.test(value) || Number(value) > INLINE_LIMIT_MAX) {
    throw new ApiError(
      ErrorCode.BAD_REQUEST,
      `Query parameter "inlinelimit" must be -1 (no limit) or a whole number from 0 to ${INLINE_LIMIT_MAX}.`,
    );
  }
  return Number(value);
}

/**
 * What `inlinelimit`, `deferred` and `inline` (LAC) ask of a request's text values: `deferred` names
 * `Resource.attribute`s always sent as a link, `inline` ones always sent whole, whatever their length;
 * `deferred` wins over `inline`, both over `inlinelimit`. Names match case-insensitively; a table's are its
 * resource and column names (also in a write's txsummary), a custom resource level's its name and attribute
 * names. Entries naming something the answer does not hold change nothing (a request may name several levels).
 */
export class InlinePolicy {
  constructor(
    readonly limit: number,
    private readonly deferred: ReadonlySet<string> = new Set(),
    private readonly inline: ReadonlySet<string> = new Set(),
  ) {}

  /** No attribute named: `limit` for all. */
  get uniform(): boolean {
    return this.deferred.size === 0 && this.inline.size === 0;
  }

  /** The limit for one attribute: -1 (always a link) when deferred, Infinity when inline, else `limit`. */
  limitFor(resource: string, attribute: string): number {
    if (this.uniform) return this.limit;
    const key = `${resource}.${attribute}`.toLowerCase();
    if (this.deferred.has(key)) return -1;
    if (this.inline.has(key)) return Infinity;
    return this.limit;
  }
}

/**
 * The request's inline policy; `fallback` is the limit when `inlinelimit` is absent.
 *
 * @throws ApiError 400 / 4000 for a bad `inlinelimit`, or a `deferred` / `inline` entry that is not `Resource.attribute`.
 */
export function inlinePolicyOf(query: Record<string, unknown>, fallback = INLINE_LIMIT_DEFAULT): InlinePolicy {
  return new InlinePolicy(inlineLimitOf(query, fallback), namesOf(query.deferred, 'deferred'), namesOf(query.inline, 'inline'));
}

/** Whether the request says anything about inlining (a write's txsummary is shaped only then). */
export function asksInlining(query: Record<string, unknown>): boolean {
  return query.inlinelimit !== undefined || query.deferred !== undefined || query.inline !== undefined;
}

/** `Resource.attribute` entries, comma-separated and/or repeated, lower-cased. */
function namesOf(value: unknown, name: string): ReadonlySet<string> {
  if (value === undefined) return new Set();
  const given = Array.isArray(value) ? value : [value];
  const entries: string[] = [];
  for (const text of given) {
    if (typeof text !== 'string') throw new ApiError(ErrorCode.BAD_REQUEST, `Query parameter "${name}" must be text.`);
    for (const entry of text.split(',')) {
      const trimmed = entry.trim();
      const dot = trimmed.lastIndexOf('.');
      if (dot <= 0 || dot === trimmed.length - 1) {
        throw new ApiError(
          ErrorCode.BAD_REQUEST,
          `Query parameter "${name}" takes Resource.attribute names separated by commas, not "${excerpt(trimmed, 64)}".`,
        );
      }
      entries.push(trimmed.toLowerCase());
    }
  }
  if (entries.length > MAX_NAMED)
    throw new ApiError(ErrorCode.BAD_REQUEST, `Query parameter "${name}" may name at most ${MAX_NAMED} attributes.`);
  return new Set(entries);
}

/** Whether a column's values can be longer than `limit`: text or bytes without a declared length, or with a longer one. */
export function mayExceed(column: ResourceColumn, limit: number): boolean {
  return (column.kind === 'string' || column.kind === 'binary') && (column.length === undefined || column.length > limit);
}

/**
 * A JSON value as sent under `inlinelimit`: the value itself, or, for text longer than `limit`
 * characters (code points), `{ "@metadata": { "href": <the value's URL>, "length": <characters> } }`,
 * whose href answers the whole value (`GET <row href>/<attribute>`). A limit of -1 (`deferred`) makes
 * every text a link; null stays null.
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
