import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { pathSegment } from './path-segment.js';
import type { Resource } from './resource-registry.js';
import { fromRequest, type CanonicalRow, type CanonicalValue } from './value-codec.js';

/** A primary key's values in key-column order. */
export type KeyValues = CanonicalValue[];

/**
 * Parses the primary-key segment of a URL as sent (not yet decoded): composite keys join their
 * parts with `~`, each part URL-encoded, so a `~` inside a part arrives as `%7E`. A single-column
 * key is one part, whatever it contains.
 */
export function parseKeySegment(resource: Resource, segment: string): KeyValues {
  const parts = resource.primaryKey.length === 1 ? [segment] : segment.split('~');
  if (parts.length !== resource.primaryKey.length) {
    throw new ApiError(
      ErrorCode.BAD_REQUEST,
      `The key of ${resource.name} has ${resource.primaryKey.length} part(s) (${resource.primaryKey.map((c) => c.name).join('~')}).`,
    );
  }
  return resource.primaryKey.map((column, i) => {
    let text: string;
    try {
      text = decodeURIComponent(parts[i]!);
    } catch {
      throw new ApiError(ErrorCode.BAD_REQUEST, 'The key in the URL is not correctly encoded.');
    }
    const raw = column.kind === 'string' ? text : column.kind === 'boolean' ? text === 'true' : text;
    // A key is looked up, not stored: a whole number past the column's width names no row (as
    // in filters), so any exact integer is taken; an empty or NUL part is refused all the same.
    return fromRequest({ ...column, nullable: false, integerBits: 64 }, raw);
  });
}

/**
 * The URL segment of a row's key: each part URL-encoded (`~` too, which encodeURIComponent keeps), joined with `~`.
 * A part that is `.` or `..` is written `%2E` / `%2E%2E`: as a path segment of its own, clients
 * that remove dot segments (curl, most HTTP libraries) would otherwise drop it and the href would
 * name the collection or its parent. `parseKeySegment` decodes it back.
 */
export function keySegment(resource: Resource, row: CanonicalRow): string {
  return resource.primaryKey.map((c) => encodeKeyPart(String(row[c.name]))).join('~');
}

/** The same segment from the key's values, in key-column order (a parent's key taken from a child's foreign key). */
export function keySegmentOf(values: readonly unknown[]): string {
  return values.length === 1 ? encodeKeyPart(String(values[0])) : values.map((v) => encodeKeyPart(String(v))).join('~');
}

function encodeKeyPart(part: string): string {
  return pathSegment(part).replaceAll('~', '%7E');
}

export function keyOf(resource: Resource, row: CanonicalRow): KeyValues {
  return resource.primaryKey.map((c) => row[c.name] ?? null);
}

/** A stable identity for maps: resource name and key. */
export function rowIdentity(resource: Resource, key: KeyValues): string {
  return `${resource.name}\u0000${key.map((v) => String(v)).join('\u0000')}`;
}

/** Whether these columns (in any order) are the resource's primary key. */
export function isPrimaryKey(resource: Resource, columns: readonly string[]): boolean {
  return sameColumns(resource.primaryKey.map((c) => c.name), columns);
}

/** Whether these columns (in any order) identify at most one row: the primary key or a unique key (see `Resource.uniqueKeys`). */
export function isRowKey(resource: Resource, columns: readonly string[]): boolean {
  return isPrimaryKey(resource, columns) || resource.uniqueKeys.some((key) => sameColumns(key, columns));
}

function sameColumns(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && new Set(a).size === a.length && a.every((name) => b.includes(name));
}
