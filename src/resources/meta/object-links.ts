import { keySegmentOf } from '../../data/primary-key.js';
import type { Resource, ResourceColumn, ResourceRegistry } from '../../data/resource-registry.js';
import type { CanonicalRow, CanonicalValue } from '../../data/value-codec.js';
import type { ResourceAccess } from '../../security/resource-access.js';
import { childRole, parentRole } from './relation-roles.js';

/** One entry of `@metadata.links` (LAC's shape): a parent object, or the collection of an object's children. */
export interface ObjectLink {
  href: string;
  rel: 'parent' | 'children';
  /** The relation's role name (see relation-roles.ts). */
  role: string;
  /** `urn:caliveapicreator:<project>:<prefix>:<table>` of the linked table, as LAC types its links. */
  type: string;
}

/** A relation's columns on this row's side (`own`) and on the other side (`other`), pair by pair. */
interface Template {
  rel: ObjectLink['rel'];
  role: string;
  type: string;
  /** Columns of this row whose values the link carries. */
  own: readonly ResourceColumn[];
  /** The linked table's matching columns. */
  other: readonly string[];
  /** `<other column>:` URL-encoded, pair by pair, for a collection link's sysfilter. */
  otherPrefixes: readonly string[];
  /** `<base>/<table>/`: the link is the linked object's URL (its key is `own`'s values); undefined: a filtered collection. */
  objectUrl?: { prefix: string };
  /** `<base>/<table>?sysfilter=equal(`: the link is the linked table's rows whose `other` columns hold `own`'s values. */
  collectionUrl?: string;
}

/**
 * A value as a sysfilter literal: strings (dates too) single-quoted with quotes doubled and backslashes written
 * twice (a backslash starts an escape: `C:\new` would otherwise read as a line break), the rest as they print.
 */
function literal(column: ResourceColumn, value: Exclude<CanonicalValue, null>): string {
  if (column.kind === 'string' || column.kind === 'date' || column.kind === 'datetime') {
    return `'${String(value).replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
  }
  return String(value);
}

/** True when every column is in `readable` (undefined: every column is). */
function allIn(readable: ReadonlySet<string> | undefined, columns: readonly string[]): boolean {
  return !readable || columns.every((c) => readable.has(c));
}

/**
 * The `@metadata.links` of one resource's objects for one caller, planned once per request: each relation
 * whose other table the caller may READ becomes a URL template, so that an object costs only the string
 * work of its own values. A link is built only from columns of the row the caller may read (a parent link
 * from the foreign key, a children link from the referenced columns, or the primary key its href shows
 * anyway), and only when the caller may filter the other table on the columns a collection link names:
 * nothing in a link tells more than the object does.
 */
export class ObjectLinks {
  private constructor(
    private readonly templates: readonly Template[],
    private readonly keyColumns: ReadonlySet<string>,
  ) {}

  /**
   * @param baseUrl absolute URL of the API base
   * @param typeBase e.g. `urn:caliveapicreator:demo:`; a link's type is this plus `<prefix>:<table>`
   */
  static plan(resource: Resource, access: ResourceAccess, registry: ResourceRegistry, baseUrl: string, typeBase: string): ObjectLinks {
    const templates: Template[] = [];
    const typeOf = (table: string): string => `${typeBase}${registry.prefix}:${table}`;
    for (const relation of resource.parents) {
      const parent = registry.find(relation.parent);
      if (!parent || !access.to(parent).can('READ')) continue;
      const own = relation.columns.map((pair) => resource.columnsByName.get(pair.child)!);
      const other = relation.columns.map((pair) => pair.parent);
      const byKey = parent.primaryKey.length === other.length && parent.primaryKey.every((c, i) => c.name === other[i]);
      if (!byKey && !allIn(access.to(parent).readable(), other)) continue;
      const table = `${baseUrl}/${parent.urlName}`;
      templates.push({
        rel: 'parent',
        role: parentRole(relation),
        type: typeOf(parent.tableName),
        own,
        other,
        otherPrefixes: other.map((name) => `${encodeURIComponent(name)}:`),
        ...(byKey ? { objectUrl: { prefix: `${table}/` } } : { collectionUrl: `${table}?sysfilter=equal(` }),
      });
    }
    for (const relation of resource.children) {
      const child = registry.find(relation.child);
      const via = child?.parents.find((p) => p.name === relation.via);
      if (!child || !via || !access.to(child).can('READ')) continue;
      const other = via.columns.map((pair) => pair.child);
      if (!allIn(access.to(child).readable(), other)) continue;
      templates.push({
        rel: 'children',
        role: childRole(resource, relation),
        type: typeOf(child.tableName),
        own: via.columns.map((pair) => resource.columnsByName.get(pair.parent)!),
        other,
        otherPrefixes: other.map((name) => `${encodeURIComponent(name)}:`),
        collectionUrl: `${baseUrl}/${child.urlName}?sysfilter=equal(`,
      });
    }
    return new ObjectLinks(templates, new Set(resource.primaryKey.map((c) => c.name)));
  }

  /**
   * The links of one object, given the columns its reader may see in it (undefined: all) and, for a custom
   * resource level, the columns the level shows (undefined: all): a link is built only from columns in both.
   */
  of(row: CanonicalRow, readable?: ReadonlySet<string>, shown?: ReadonlySet<string>): ObjectLink[] {
    const links: ObjectLink[] = [];
    if (this.templates.length === 0) return links;
    for (const template of this.templates) {
      const href = this.href(template, row, readable, shown);
      if (href !== undefined) links.push({ href, rel: template.rel, role: template.role, type: template.type });
    }
    return links;
  }

  private href(
    template: Template,
    row: CanonicalRow,
    readable: ReadonlySet<string> | undefined,
    shown: ReadonlySet<string> | undefined,
  ): string | undefined {
    const values: Array<Exclude<CanonicalValue, null>> = [];
    for (const column of template.own) {
      const value = row[column.name];
      if (value === null || value === undefined) return undefined;
      const visible = (!readable || readable.has(column.name)) && (!shown || shown.has(column.name));
      if (!visible && !this.keyColumns.has(column.name)) return undefined;
      values.push(value);
    }
    if (template.objectUrl) return template.objectUrl.prefix + keySegmentOf(values);
    let pairs = '';
    for (let i = 0; i < values.length; i++) {
      pairs += `${i === 0 ? '' : ','}${template.otherPrefixes[i]!}${encodeURIComponent(literal(template.own[i]!, values[i]!))}`;
    }
    return `${template.collectionUrl!}${pairs})`;
  }
}
