import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import type { ApiSettings } from '../config/api-settings.js';
import type { ReadQuery } from '../documents/read/read-query.js';

const MAX_FILTER_PARAMS = 16;

/** The most rows `@count` counts: past it the answer says "at least" (`"more": true`), so a count never scans more. */
export const COUNT_BOUND = 100_000;

function list(value: unknown, name: string): string[] {
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
  if (!values.every((v): v is string => typeof v === 'string')) {
    throw new ApiError(ErrorCode.BAD_REQUEST, `Query parameter "${name}" must be text.`);
  }
  if (values.length > MAX_FILTER_PARAMS) {
    throw new ApiError(ErrorCode.BAD_REQUEST, `At most ${MAX_FILTER_PARAMS} "${name}" parameters are allowed.`);
  }
  return values;
}

function single(value: unknown, name: string): string | undefined {
  const values = list(value, name);
  if (values.length > 1) throw new ApiError(ErrorCode.BAD_REQUEST, `Query parameter "${name}" may be given once.`);
  return values[0];
}

function integer(value: string | undefined, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,9}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ApiError(ErrorCode.BAD_REQUEST, `Query parameter "${name}" must be a whole number from ${min} to ${max}.`);
  }
  return Number(value);
}

/** Reads filter, sysfilter, order, sysorder, pagesize and offset from a request's query. */
export function readQueryOf(query: Record<string, unknown>, settings: ApiSettings): ReadQuery {
  const filters = list(query.filter, 'filter');
  const order = single(query.order, 'order');
  if (!settings.allowFreeFormFilters && (filters.length > 0 || order !== undefined)) {
    throw new ApiError(ErrorCode.FREE_FORM_FORBIDDEN, 'This API does not accept free-form filter or order; use sysfilter and sysorder.');
  }
  return {
    filters,
    sysfilters: list(query.sysfilter, 'sysfilter'),
    order,
    sysorder: single(query.sysorder, 'sysorder'),
    pageSize: integer(single(query.pagesize, 'pagesize'), 'pagesize', 1, settings.pageSizeMax, settings.pageSizeDefault),
    offset: integer(single(query.offset, 'offset'), 'offset', 0, 1_000_000_000, 0),
  };
}
