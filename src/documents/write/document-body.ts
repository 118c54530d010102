import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import type { Resource } from '../../data/resource-registry.js';
import type { CanonicalRow } from '../../data/value-codec.js';

const METADATA = '@metadata';
export const MAX_OBJECTS_PER_REQUEST = 1000;

/** The items of a POST or PUT body: one object, or an array of objects. */
export function bodyItems(body: unknown): Array<Record<string, unknown>> {
  const items = Array.isArray(body) ? body : [body];
  if (body === undefined || items.length === 0)
    throw new ApiError(ErrorCode.BAD_REQUEST, 'The request body must be a JSON object or an array of objects.');
  if (items.length > MAX_OBJECTS_PER_REQUEST) {
    throw new ApiError(ErrorCode.BAD_REQUEST, `At most ${MAX_OBJECTS_PER_REQUEST} objects may be sent in one request.`);
  }
  for (const item of items) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw new ApiError(ErrorCode.BAD_REQUEST, 'Each object in the request body must be a JSON object.');
    }
  }
  return items as Array<Record<string, unknown>>;
}

/** What a client may say about an object in its `@metadata`. */
export interface ObjectMetadata {
  href?: string;
  checksum?: string;
  /** `@metadata.action` as sent (checked by `writeActionOf`). */
  action?: string;
  /** `@metadata.key`: the attribute names the object is found by (one, or a list for a composite key). */
  key?: string[];
}

export function metadataOf(item: Record<string, unknown>): ObjectMetadata {
  const metadata = item[METADATA];
  if (metadata === undefined) return {};
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) {
    throw new ApiError(ErrorCode.BAD_REQUEST, '"@metadata" must be an object.');
  }
  const { href, checksum, action, key } = metadata as Record<string, unknown>;
  if (
    (href !== undefined && typeof href !== 'string') ||
    (checksum !== undefined && typeof checksum !== 'string') ||
    (action !== undefined && typeof action !== 'string')
  ) {
    throw new ApiError(ErrorCode.BAD_REQUEST, '"@metadata.href", "@metadata.checksum" and "@metadata.action" must be strings.');
  }
  return { href: href === undefined ? undefined : withPlainResourceSegment(href), checksum, action, key: keyNames(key) };
}

/** `@metadata.key`: an attribute name, or a list of different ones (a composite key). */
function keyNames(key: unknown): string[] | undefined {
  if (key === undefined) return undefined;
  const names = Array.isArray(key) ? (key as unknown[]) : [key];
  if (names.length === 0 || names.some((name) => typeof name !== 'string') || new Set(names).size !== names.length) {
    throw new ApiError(ErrorCode.BAD_REQUEST, '"@metadata.key" must be an attribute name or a list of different attribute names.');
  }
  return names as string[];
}

/**
 * The href with its resource segment (the one before the key) decoded: hrefs percent-encode the
 * table's name (`my%20table`), and the document writer finds the key after the name as it is
 * (`/my table/`). The key segment stays encoded, for `parseKeySegment`.
 */
function withPlainResourceSegment(href: string): string {
  const end = href.search(/[?#]/);
  const path = end < 0 ? href : href.slice(0, end);
  const last = path.lastIndexOf('/');
  const before = last > 0 ? path.lastIndexOf('/', last - 1) : -1;
  const segment = path.slice(before + 1, last);
  if (before < 0 || !segment.includes('%')) return href;
  try {
    return `${path.slice(0, before + 1)}${decodeURIComponent(segment)}${href.slice(last)}`;
  } catch {
    return href;
  }
}

/** Columns an insert must set: not nullable, no default, not generated. */
export function missingRequired(resource: Resource, values: CanonicalRow): string[] {
  return resource.columns.filter((c) => !c.nullable && !c.hasDefault && !c.generated && !(c.name in values)).map((c) => c.name);
}
