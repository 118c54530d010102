import type { DataApi, Json, JsonObject } from '../api.js';

/**
 * What the Data page knows of the data API: its resources (`@resources`), each table's columns and relations
 * (`@tables/<name>`), rows and the URLs in them. Everything comes through the data API with the data token, so it
 * is what that token's roles may see: the API leaves out the rest.
 */

export interface ResourceInfo {
  name: string;
  table: string;
  primaryKey: string[];
  /** `TableBased` or `Custom` (a nested resource: no counts, pickers or relations here). */
  resource_type?: string;
  /** A view: GET only, described under `@views`. */
  readOnly?: boolean;
}

export interface ColumnInfo {
  name: string;
  type: string;
  nullable: boolean;
  generated: boolean;
  /** Computed by a logic rule: shown, never sent. */
  derived?: boolean;
  primaryKey: boolean;
}

/** A relation of `@tables/<name>`: to a parent (`parents`) or to children (`children`). */
export interface RelationInfo {
  name: string;
  /** parents: the parent table. */
  parent?: string;
  /** children: the child table. */
  child?: string;
  /** children: the role name its links carry. */
  role?: string;
  child_columns: string[];
  parent_columns: string[];
}

export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  primaryKey: string[];
  parents: RelationInfo[];
  children: RelationInfo[];
}

export interface Link {
  href: string;
  rel: 'parent' | 'children';
  role: string;
  type?: string;
}

export type Row = JsonObject & {
  '@metadata'?: { href?: string; checksum?: string; next_batch?: string; resource?: string; verb?: string; links?: Link[] };
};

/** `@count/<resource>`'s answer. */
export interface Count {
  count: number;
  more: boolean;
}

/** The path of an API URL below the base (`customer/Alpha%20and%20Sons`), as the URL spells it. */
export function pathOf(href: string, base: string): string {
  const at = href.indexOf(`${base}/`);
  return at < 0 ? href : href.slice(at + base.length + 1);
}

/** A table name or key part as one path segment: it may hold a slash or a space; `~` joins the parts of a composite key. */
export function segment(text: string): string {
  return encodeURIComponent(text).replaceAll('~', '%7E');
}

export function textOf(value: Json | undefined): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The key of `row` as the API's URLs spell it (`3`, `North%7EEast~A%201`). */
export function keySegmentOf(primaryKey: readonly string[], row: Row): string {
  return primaryKey.map((column) => segment(textOf(row[column]))).join('~');
}

/** The row's path below the base: its href's, or one made from its key. */
export function rowPath(resource: ResourceInfo, row: Row, base: string): string {
  const href = row['@metadata']?.href;
  return href ? pathOf(href, base) : `${segment(resource.name)}/${keySegmentOf(resource.primaryKey, row)}`;
}

/** Rows of a list answer without the `next_batch` element, and whether it was there. */
export function pageOf(answer: Row[]): { rows: Row[]; hasMore: boolean } {
  const last = answer[answer.length - 1];
  const hasMore = last?.['@metadata']?.next_batch !== undefined && last['@metadata'].href === undefined;
  return { rows: hasMore ? answer.slice(0, -1) : answer, hasMore };
}

/** A field's text back to a value of the column's kind; the API refuses (beside the field) what does not fit. */
export function valueOf(text: string, column: ColumnInfo | undefined, original: Json | undefined): Json {
  if (text === '' && (column?.nullable ?? original === null)) return null;
  // A JSON column (json, jsonb, an array) takes the JSON its field spells; what is no JSON goes as the text it is, and is refused beside the field.
  if (column ? column.type === 'json' : typeof original === 'object' && original !== null) {
    try {
      return JSON.parse(text) as Json;
    } catch {
      return text;
    }
  }
  if (isNumeric(column, original) && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (column ? /bool/i.test(column.type) : typeof original === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

function isNumeric(column: ColumnInfo | undefined, original?: Json): boolean {
  return column ? /int|decimal|number|float|double|real|numeric/i.test(column.type) : typeof original === 'number';
}

/** Whether `text` could be a value of the column (a number for a number column): what could not is not looked up. */
export function mayBeValueOf(column: ColumnInfo | undefined, text: string): boolean {
  return !isNumeric(column) || Number.isFinite(Number(text));
}

/** Names that say "this is what a person calls the row": `name`, `title`, `label`, and `*_name`, `*_title` (not a foreign key's). */
const LABEL_NAME = /^(name|title|label|description)$|_(name|title|label)$/i;

/**
 * The column that names a row for people (a product's `name`, an employee's `name`), when the table has one: a text
 * column named so, preferring an exact `name`/`title`/`label`, never a foreign key column (`customer_name` on an
 * order names its customer, not the order). Undefined: the row is shown by its key.
 */
export function labelColumn(table: TableInfo): string | undefined {
  const foreign = new Set(table.parents.flatMap((p) => p.child_columns));
  const texts = table.columns.filter((c) => c.type === 'string' && !foreign.has(c.name) && LABEL_NAME.test(c.name));
  return (texts.find((c) => /^(name|title|label)$/i.test(c.name)) ?? texts[0])?.name;
}

/** A URL path segment as text (as it is, should it not decode). */
export function decodedSegment(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A row as people read it: its label and key (`Drill (3)`), or the key alone. */
export function rowTitle(table: TableInfo | undefined, row: Row): string {
  if (!table) return decodedSegment(row['@metadata']?.href?.split('/').pop() ?? '');
  const key = table.primaryKey.map((k) => textOf(row[k])).join(', ');
  const label = labelColumn(table);
  const text = label !== undefined && !table.primaryKey.includes(label) ? textOf(row[label]) : '';
  return text !== '' ? `${text} (${key})` : key;
}

/** A text as a sysfilter string literal: single-quoted, a quote or backslash escaped with a backslash. */
export function sysfilterString(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** The single-column foreign keys of a table: each column that refers to a parent's column, with that parent. */
export function foreignKeys(table: TableInfo | undefined): Map<string, { parent: string; parentColumn: string; relation: string }> {
  const keys = new Map<string, { parent: string; parentColumn: string; relation: string }>();
  for (const relation of table?.parents ?? []) {
    const [child] = relation.child_columns;
    const [parentColumn] = relation.parent_columns;
    // A composite foreign key stays plain fields: one picker cannot fill several of them yet.
    if (relation.child_columns.length !== 1 || child === undefined || parentColumn === undefined || relation.parent === undefined) continue;
    if (!keys.has(child)) keys.set(child, { parent: relation.parent, parentColumn, relation: relation.name });
  }
  return keys;
}

/**
 * `@tables/<name>` (and `@views/<name>`) of one data API and token, each read once: the pickers and relation lists of one page share them.
 * A table the token may not describe answers undefined.
 */
export class TableCatalog {
  private readonly tables = new Map<string, Promise<TableInfo | undefined>>();

  constructor(readonly data: DataApi) {}

  /** A table's description (`@tables/<name>`), or a view's (`@views/<name>`). */
  table(name: string, view = false): Promise<TableInfo | undefined> {
    const key = `${view ? 'view' : 'table'}:${name.toLowerCase()}`;
    let found = this.tables.get(key);
    if (!found) {
      found = this.data.get<TableInfo>(`${view ? '@views' : '@tables'}/${encodeURIComponent(name)}`).catch(() => undefined);
      this.tables.set(key, found);
    }
    return found;
  }

  /**
   * Parent rows whose label (or key) holds `text`, at most `limit`: a case-insensitive `like` on the label column, and
   * the row whose key is `text` exactly. Only rows the token may read come back, and the label column only when it
   * may read it (a filter on a hidden column is refused: then the key alone is searched).
   */
  async search(parent: TableInfo, parentColumn: string, text: string, limit: number): Promise<Row[]> {
    const trimmed = text.trim();
    const key = parent.columns.find((c) => c.name === parentColumn);
    /** Rows whose `column` holds the text (every row when there is no text), ordered by it; undefined when refused. */
    const like = async (column: string | undefined): Promise<Row[] | undefined> => {
      if (column === undefined) return trimmed === '' ? this.rows(parent, new URLSearchParams({ pagesize: String(limit) })) : [];
      const query = new URLSearchParams({ pagesize: String(limit), sysorder: `(${column}:asc_uc)` });
      if (trimmed !== '') query.set('sysfilter', `like_uc(${column}:${sysfilterString(`%${trimmed}%`)})`);
      return this.rows(parent, query);
    };
    const label = labelColumn(parent);
    const found =
      (label !== undefined ? await like(label) : undefined) ?? (await like(key?.type === 'string' ? parentColumn : undefined)) ?? [];
    const byKey = parent.primaryKey.length === 1 && parent.primaryKey[0] === parentColumn;
    if (trimmed !== '' && byKey && mayBeValueOf(key, trimmed) && !found.some((r) => textOf(r[parentColumn]) === trimmed)) {
      const exact = await this.data.get<Row[]>(`${segment(parent.name)}/${segment(trimmed)}`).catch(() => [] as Row[]);
      found.unshift(...exact);
    }
    return found.slice(0, limit);
  }

  /** A page of a table's rows, or undefined when the API refuses the query (a column the token may not read). */
  private rows(table: TableInfo, query: URLSearchParams): Promise<Row[] | undefined> {
    return this.data.get<Row[]>(`${segment(table.name)}?${query.toString()}`).then(
      (answer) => pageOf(answer).rows,
      () => undefined,
    );
  }
}
