import type { RowChecksum } from '../data/checksum.js';
import { keySegment } from '../data/primary-key.js';
import { isKeyless, type Resource, type ResourceColumn } from '../data/resource-registry.js';
import type { SummaryEntry } from '../documents/summary/summary-terms.js';
import { toJson, type CanonicalRow } from '../data/value-codec.js';
import { jsonColumns } from '../data/json-row.js';
import type { ObjectLinks } from './meta/object-links.js';
import { INLINE_LIMIT_DEFAULT, inlined, mayExceed, type InlinePolicy } from './inline-limit.js';

/** Per resource, the columns that may exceed the default inline limit (none in most tables: nothing to check per row). */
const longColumnsAtDefault = new WeakMap<Resource, ResourceColumn[]>();

function longColumns(resource: Resource, limit: number): ResourceColumn[] {
  if (limit !== INLINE_LIMIT_DEFAULT) return resource.columns.filter((c) => mayExceed(c, limit));
  let columns = longColumnsAtDefault.get(resource);
  if (!columns) longColumnsAtDefault.set(resource, (columns = resource.columns.filter((c) => mayExceed(c, limit))));
  return columns;
}

/**
 * Turns canonical rows into API objects: the columns the caller may read, then `@metadata`
 * with href and checksum (and resource and verb in a transaction summary); a view's row without
 * a key has no `@metadata`.
 */
export class ResourceSerializer {
  /** @param resourcesUrl absolute URL of the API base, e.g. http://host/rest/default/demo/v1 */
  constructor(
    private readonly resourcesUrl: string,
    private readonly checksums: RowChecksum,
  ) {}

  href(resource: Resource, row: CanonicalRow): string {
    return `${this.resourcesUrl}/${resource.urlName}/${keySegment(resource, row)}`;
  }

  /**
   * A row as GET answers it; text longer than the inline policy's limit becomes a link to its value (see `inlined`),
   * and `deferred` / `inline` text columns are always a link / always whole.
   * `links`: the caller's links of `resource`'s objects, planned once per request; `@metadata.links` is left out when there are none.
   */
  object(
    resource: Resource,
    row: CanonicalRow,
    readable?: ReadonlySet<string>,
    inline?: InlinePolicy,
    links?: ObjectLinks,
  ): Record<string, unknown> {
    // A view's row without a key has no URL, so no href, no checksum (nothing could send it back) and no links to a
    // long value: it is its columns alone, values whole. LAC's own clients read an @metadata as one with an href.
    if (isKeyless(resource)) return this.bare(resource, row, readable);
    const href = this.href(resource, row);
    const metadata: Record<string, unknown> = { href, checksum: this.checksums.of(resource, row) };
    const linked = links?.of(row, readable);
    if (linked && linked.length > 0) metadata.links = linked;
    const out: Record<string, unknown> = { '@metadata': metadata };
    this.copyColumns(resource, row, out, readable);
    if (inline) this.inline(resource, out, href, inline);
    return out;
  }

  /** Replaces the text values `inline` sends as links. */
  private inline(resource: Resource, out: Record<string, unknown>, href: string, inline: InlinePolicy): void {
    const columns = inline.uniform
      ? longColumns(resource, inline.limit)
      : resource.columns.filter((c) => c.kind === 'string' || c.kind === 'binary');
    for (const column of columns) {
      if (!Object.hasOwn(out, column.name)) continue;
      const limit = inline.limitFor(resource.name, column.name);
      if (limit !== Infinity) {
        out[column.name] = inlined(out[column.name], limit, () => `${href}/${encodeURIComponent(column.name)}`, column.kind === 'binary');
      }
    }
  }

  /** The columns alone, for `nometa=true`. */
  bare(resource: Resource, row: CanonicalRow, readable?: ReadonlySet<string>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.copyColumns(resource, row, out, readable);
    return out;
  }

  /** A summary row's href: `<base>/<path of its terms>/<key>` (see `SummaryTerms`). */
  summaryHref(entry: SummaryEntry): string {
    return `${this.resourcesUrl}/${entry.terms.path}/${keySegment(entry.resource, entry.row)}`;
  }

  /**
   * A txsummary row in its terms (see `SummaryTerms`): `@metadata` with href, resource, verb and the
   * table row's checksum (none for DELETE), then the attributes its terms name that the caller may read.
   * `inline` (a write's `inlinelimit`, `deferred`, `inline`) shapes its text values as a GET's, named as
   * the terms name them; without it values are whole. A deleted row's values are always whole: there is
   * no row left to link to.
   */
  summaryEntry(entry: SummaryEntry, inline?: InlinePolicy): Record<string, unknown> {
    const { resource, row, verb, readable, terms } = entry;
    const href = this.summaryHref(entry);
    const metadata: Record<string, unknown> = { href, resource: terms.resource, verb };
    if (verb !== 'DELETE') metadata.checksum = this.checksums.of(resource, row);
    const out: Record<string, unknown> = { '@metadata': metadata };
    if (!terms.attributes) {
      this.copyColumns(resource, row, out, readable);
      if (inline && verb !== 'DELETE' && !isKeyless(resource)) this.inline(resource, out, href, inline);
      return out;
    }
    for (const attribute of terms.attributes) {
      if (readable && !readable.has(attribute.column)) continue;
      const column = resource.columnsByName.get(attribute.column)!;
      const value = toJson(column, row[attribute.column] ?? null);
      const inlinable = column.kind === 'string' || column.kind === 'binary';
      const limit = inline && verb !== 'DELETE' && inlinable ? inline.limitFor(terms.resource, attribute.name) : Infinity;
      out[attribute.name] =
        limit === Infinity ? value : inlined(value, limit, () => `${href}/${encodeURIComponent(attribute.name)}`, column.kind === 'binary');
    }
    return out;
  }

  private copyColumns(resource: Resource, row: CanonicalRow, out: Record<string, unknown>, readable?: ReadonlySet<string>): void {
    jsonColumns(resource, row, readable, out);
  }
}
