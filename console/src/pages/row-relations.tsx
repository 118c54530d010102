import { useEffect, useState } from 'preact/hooks';
import { go } from '../shell.js';
import {
  decodedSegment,
  pageOf,
  pathOf,
  rowTitle,
  segment,
  type Count,
  type Link,
  type Row,
  type TableCatalog,
  type TableInfo,
} from './data-model.js';

/** How many children each relation lists under a row. */
const CHILDREN_SHOWN = 5;

/** A link to the Data page at `path` (a row, `customer/Alpha%20and%20Sons`, or a list, `lineitem?sysfilter=...`). */
export function DataLink(props: { path: string; children: string }) {
  return (
    <a
      href={`/admin/data/${props.path}`}
      onClick={(event) => {
        event.preventDefault();
        go(`data/${props.path}`);
      }}
    >
      {props.children}
    </a>
  );
}

/** The table a link leads to: the relation its role names in `@tables`, else the end of its type (`urn:…:main:customer`). */
function tableOf(table: TableInfo | undefined, link: Link): string {
  const relation =
    link.rel === 'parent'
      ? table?.parents.find((p) => p.name === link.role)?.parent
      : table?.children.find((c) => c.role === link.role)?.child;
  return relation ?? link.type?.split(':').pop() ?? link.role;
}

/** One parent of the row: the relation's name and a link to the parent row, named by its label. */
function ParentLink(props: { catalog: TableCatalog; base: string; table: TableInfo | undefined; link: Link }) {
  const { catalog, base, link } = props;
  const path = pathOf(link.href, base);
  const [title, setTitle] = useState<string>();
  useEffect(() => {
    void Promise.all([catalog.data.get<Row[]>(path).catch(() => []), catalog.table(tableOf(props.table, link))]).then(([rows, parent]) =>
      setTitle(rows[0] ? rowTitle(parent, rows[0]) : 'not found'),
    );
  }, [path]);
  return (
    <li data-relation={link.role}>
      {link.role}: <DataLink path={path}>{title ?? decodedSegment(path.slice(path.indexOf('/') + 1))}</DataLink>
    </li>
  );
}

/** One relation to the row's children: how many there are, the first few, and a link to all of them in the list. */
function ChildList(props: { catalog: TableCatalog; base: string; table: TableInfo | undefined; link: Link }) {
  const { catalog, base, link } = props;
  const path = pathOf(link.href, base);
  const child = tableOf(props.table, link);
  const [children, setChildren] = useState<{ rows: Row[]; table?: TableInfo; count?: Count }>();
  useEffect(() => {
    const sysfilter = new URL(link.href, location.href).searchParams.get('sysfilter') ?? '';
    void Promise.all([
      catalog.data.get<Row[]>(`${path}&pagesize=${CHILDREN_SHOWN}`).then(
        (answer) => pageOf(answer).rows,
        () => [] as Row[],
      ),
      catalog.table(child),
      catalog.data.get<Count>(`@count/${segment(child)}?${new URLSearchParams({ sysfilter }).toString()}`).catch(() => undefined),
    ]).then(([rows, table, count]) => setChildren({ rows, table, count }));
  }, [path]);
  const count = children?.count;
  const heading = count ? `${link.role} (${count.count}${count.more ? '+' : ''})` : link.role;
  return (
    <section class="children" data-relation={link.role} aria-label={`Children: ${link.role}`}>
      <h3>{heading}</h3>
      {children && children.rows.length === 0 && <p class="hint">None.</p>}
      {children && children.rows.length > 0 && (
        <ul>
          {children.rows.map((row, index) => (
            <li key={index}>
              <DataLink path={pathOf(row['@metadata']?.href ?? '', base)}>{rowTitle(children.table, row)}</DataLink>
            </li>
          ))}
        </ul>
      )}
      {children && children.rows.length > 0 && (
        <DataLink path={path}>{count ? `All ${count.count} in the list` : 'All in the list'}</DataLink>
      )}
    </section>
  );
}

/**
 * Where a row leads, one level: its parents (a link to each parent row) and its children (the first few of each
 * relation, their count, and a link to the rest), from the row's `@metadata.links`. The API puts there only
 * relations to tables the data token may read, built only from columns it may read, and every row and count here is
 * read with that token: nothing shown is more than the token could read itself.
 */
export function RowRelations(props: { catalog: TableCatalog; base: string; table: TableInfo | undefined; row: Row }) {
  const links = props.row['@metadata']?.links ?? [];
  const parents = links.filter((l) => l.rel === 'parent');
  const children = links.filter((l) => l.rel === 'children');
  return (
    <div class="relations" aria-label="Relations">
      <h3>Relations</h3>
      {links.length === 0 && <p class="hint">No relation this token may follow.</p>}
      {parents.length > 0 && (
        <ul class="parents" aria-label="Parents">
          {parents.map((link) => (
            <ParentLink key={link.href} catalog={props.catalog} base={props.base} table={props.table} link={link} />
          ))}
        </ul>
      )}
      {children.map((link) => (
        <ChildList key={link.href} catalog={props.catalog} base={props.base} table={props.table} link={link} />
      ))}
    </div>
  );
}
