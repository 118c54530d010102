/** What a collection read asks of one level: the request's filters and orders (texts, not yet compiled), and its page. */
export interface ReadQuery {
  filters: string[];
  sysfilters: string[];
  order?: string;
  sysorder?: string;
  pageSize: number;
  offset: number;
}
