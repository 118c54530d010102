import { keyOf, rowIdentity, type KeyValues } from '../../data/primary-key.js';
import type { Resource } from '../../data/resource-registry.js';
import type { VisibleEntry } from '../../security/summary-visibility.js';
import type { WriteLevel } from '../write/write-level.js';

/**
 * The terms a txsummary or rulesummary object of one row is given in (LAC: summary objects "are
 * coerced into the types designated in the updating resource"):
 *
 * - a row the request's body held at a level of the written resource (whatever the object's
 *   action: inserted, updated, deleted, looked up, or sent unchanged and then changed by a rule,
 *   like a customer whose balance a sum moved): that resource's terms. A custom resource's level:
 *   `resource` is the level's path (`Customers.Orders`, `Customers.Orders.Lineitems`), the href
 *   `<base>/<level path>/<key>`, and only the level's attributes, under their names (aliases).
 *   A table resource's own rows keep its plain name and every column (api-contract §1: the plain
 *   name is what hrefs use).
 * - any other row (rules changed or inserted it, or the body never held it): the table's terms,
 *   `<prefix>:<table>` (`main:purchaseorder_audit`), the table's href and its columns. A row a
 *   level of the resource could reach but that the body did not hold (an order's customer when
 *   the resource has no customer level, a sibling line item a rule changed) is one of these: whether
 *   the document would show it depends on the level's relation and fixed filter, and its href
 *   would say the request wrote it through the resource.
 *
 * Which columns the caller may read is security's (`VisibleEntry.readable`): the terms only name
 * and narrow them.
 */
export interface SummaryTerms {
  /** `@metadata.resource`. */
  resource: string;
  /** The URL name in the row's href, `<base>/<path>/<key>`. */
  path: string;
  /** JSON name ↔ column, in the level's order; undefined: every column under its own name. */
  attributes?: ReadonlyArray<{ name: string; column: string }>;
}

export interface SummaryEntry extends VisibleEntry {
  terms: SummaryTerms;
}

/** The rows the body held, each with the level it was sent at (the first, should a body hold one row twice). */
export class WrittenRows {
  private readonly levels = new Map<string, WriteLevel>();

  add(level: WriteLevel, key: KeyValues): void {
    const id = rowIdentity(level.resource, key);
    if (!this.levels.has(id)) this.levels.set(id, level);
  }

  levelOf(resource: Resource, key: KeyValues): WriteLevel | undefined {
    return this.levels.size === 0 ? undefined : this.levels.get(rowIdentity(resource, key));
  }
}

const levelTerms = new WeakMap<WriteLevel, SummaryTerms>();
const tableTerms = new WeakMap<Resource, SummaryTerms>();

function termsOfLevel(level: WriteLevel): SummaryTerms {
  let terms = levelTerms.get(level);
  if (!terms) {
    terms = level.tableResource
      ? { resource: level.resource.name, path: level.resource.urlName }
      : { resource: level.path, path: level.path, attributes: [...level.attributes].map(([name, column]) => ({ name, column })) };
    levelTerms.set(level, terms);
  }
  return terms;
}

/** `<prefix>:<table>`, for rows outside the written resource. */
function termsOfTable(resource: Resource, prefix: string): SummaryTerms {
  let terms = tableTerms.get(resource);
  if (!terms || terms.resource !== `${prefix}:${resource.name}`) {
    terms = { resource: `${prefix}:${resource.name}`, path: resource.urlName };
    tableTerms.set(resource, terms);
  }
  return terms;
}

/** The summary's rows, each in its terms (see `SummaryTerms`). */
export function inTerms(entries: readonly VisibleEntry[], written: WrittenRows, prefix: string): SummaryEntry[] {
  return entries.map((entry) => {
    const level = written.levelOf(entry.resource, keyOf(entry.resource, entry.row));
    return { ...entry, terms: level ? termsOfLevel(level) : termsOfTable(entry.resource, prefix) };
  });
}
