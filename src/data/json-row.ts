import type { Resource } from './resource-registry.js';
import { toJson, type CanonicalRow } from './value-codec.js';

/**
 * A row's columns in their JSON form (`toJson`), in table order; only those in `readable` when it is given:
 * what a GET shows of the row besides its `@metadata`. Written into `out`.
 */
export function jsonColumns(
  resource: Resource,
  row: CanonicalRow,
  readable?: ReadonlySet<string>,
  out: Record<string, unknown> = {},
): Record<string, unknown> {
  for (const column of resource.columns) {
    if (readable && !readable.has(column.name)) continue;
    out[column.name] = toJson(column, row[column.name] ?? null);
  }
  return out;
}
