import type { ApiSettings } from '../config/api-settings.js';

/** A page of an admin list. */
export interface Page<T> {
  items: T[];
  offset: number;
  pagesize: number;
  total: number;
}

/** `?offset&pagesize` with the API's page-size default and cap. */
export function pageWindow(query: { offset?: number; pagesize?: number }, settings: ApiSettings): { offset: number; pagesize: number } {
  return { offset: query.offset ?? 0, pagesize: Math.min(query.pagesize ?? settings.pageSizeDefault, settings.pageSizeMax) };
}
