import { rowIdentity, type KeyValues } from '../../data/primary-key.js';
import type { Resource } from '../../data/resource-registry.js';
import { sameValue, type CanonicalRow } from '../../data/value-codec.js';
import type { WriteAction } from './write-action.js';

/**
 * What the objects of a body admitted so far will write, for the admission of the next ones
 * (see `DocumentWriter`): whatever depends on those writes is judged by the write itself,
 * since the rows as committed before the request do not show it. An update the caller can
 * tell changes nothing (every value it sends is one it may read, and equal) writes nothing.
 */
export class EarlierWrites {
  private readonly rows = new Set<string>();
  private readonly byResource = new Map<Resource, Array<{ action: WriteAction; values: CanonicalRow }>>();

  add(resource: Resource, action: WriteAction, key: KeyValues | undefined, values: CanonicalRow, changes = true): void {
    if (!changes) return;
    if (key) this.rows.add(rowIdentity(resource, key));
    const list = this.byResource.get(resource) ?? [];
    list.push({ action, values });
    this.byResource.set(resource, list);
  }

  /** Whether an earlier object writes (inserts, changes or deletes) the row with this key. */
  writes(resource: Resource, key: KeyValues): boolean {
    return this.rows.size > 0 && this.rows.has(rowIdentity(resource, key));
  }

  /** Whether an earlier object writes any row of the resource. */
  wrote(resource: Resource): boolean {
    return this.byResource.has(resource);
  }

  /**
   * Whether a LOOKUP's criteria could match differently once the earlier objects are written:
   * a row they insert whose values agree with every criterion they hold, or any row they
   * change or delete (it may enter or leave the match).
   */
  mayMatch(resource: Resource, criteria: CanonicalRow): boolean {
    return (this.byResource.get(resource) ?? []).some(
      ({ action, values }) =>
        action !== 'INSERT' ||
        Object.keys(criteria).every(
          (name) => !(name in values) || sameValue(resource.columnsByName.get(name)!.kind, values[name], criteria[name]),
        ),
    );
  }
}
