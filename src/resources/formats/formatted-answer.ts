import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import type { Resource } from '../../data/resource-registry.js';
import type { ResourceLevel } from '../../documents/levels/custom-resource-registry.js';
import type { ResourceAccess } from '../../security/resource-access.js';
import { toCsv } from './csv-writer.js';
import type { Negotiated } from './media-negotiation.js';
import { toXml } from './xml-writer.js';

type JsonObject = Record<string, unknown>;

/** What a GET of a table or custom resource sends in a format other than JSON. */
export interface FormattedAnswer {
  contentType: string;
  body: string;
  /** The list's next_batch link, for a `Link: <…>; rel="next"` header. */
  next?: string;
}

/** The CSV columns of a table's objects: the columns the caller may read, in the table's order. */
export function tableColumns(resource: Resource, access: ResourceAccess): string[] {
  const readable = access.readable();
  return resource.columns.filter((c) => !readable || readable.has(c.name)).map((c) => c.name);
}

/**
 * The CSV columns of a custom resource level's objects: its attributes the caller may read, then
 * each parent sub-resource's as `<sub>.<attribute>` (LAC flattened resources to the top level).
 * A level with a list of children cannot be one line per object: 406 / 4060, before anything is read.
 */
export function levelColumns(level: ResourceLevel, access: ResourceAccess): string[] {
  const lists = level.subLevels.filter((s) => s.kind === 'child');
  if (lists.length > 0) {
    throw new ApiError(
      ErrorCode.NOT_ACCEPTABLE,
      `CSV has one line per object, and ${level.path} holds lists (${lists.map((s) => s.name).join(', ')}): ` +
        `ask for JSON or XML, or for the list's own level (${lists[0]!.path}) as CSV.`,
    );
  }
  const readable = access.to(level.table).readable();
  const columns = level.attributes.filter((a) => !readable || readable.has(a.column.name)).map((a) => a.name);
  for (const sub of level.subLevels) columns.push(...levelColumns(sub, access).map((name) => `${sub.name}.${name}`));
  return columns;
}

/** An object and its parent sub-resources as one flat record (`Customer.name`); `@metadata` left out. */
function flatten(object: JsonObject, prefix: string, out: JsonObject): JsonObject {
  for (const [name, value] of Object.entries(object)) {
    if (name === '@metadata') continue;
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && !isValueLink(value as JsonObject)) {
      flatten(value as JsonObject, `${prefix}${name}.`, out);
    } else out[`${prefix}${name}`] = value;
  }
  return out;
}

/** `inlinelimit`'s link to a long value (`{"@metadata": {href, length}}`): a value, not a sub-resource. */
function isValueLink(value: JsonObject): boolean {
  const metadata = value['@metadata'];
  return Object.keys(value).length === 1 && typeof metadata === 'object' && metadata !== null && !('checksum' in metadata);
}

/** The next_batch link a list ends with, if any. */
function nextBatchOf(items: readonly unknown[]): string | undefined {
  const last = items.at(-1) as JsonObject | undefined;
  const metadata = last?.['@metadata'] as JsonObject | undefined;
  return last && Object.keys(last).length === 1 && typeof metadata?.next_batch === 'string' ? metadata.next_batch : undefined;
}

/**
 * The answer in the negotiated format, from the objects a JSON answer would hold. CSV: the
 * objects flattened under `columns`, without `@metadata` (the next batch is in the Link header);
 * XML: see `toXml`.
 */
export function formatAnswer(negotiated: Negotiated, items: readonly unknown[], name: string, columns: readonly string[]): FormattedAnswer {
  const next = nextBatchOf(items);
  if (negotiated.format === 'xml') return { contentType: negotiated.contentType, body: toXml(items, name), next };
  const objects = (next ? items.slice(0, -1) : items) as JsonObject[];
  return {
    contentType: negotiated.contentType,
    body: toCsv(
      columns,
      objects.map((o) => flatten(o, '', {})),
    ),
    next,
  };
}
