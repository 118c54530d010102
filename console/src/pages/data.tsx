import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiFailure, DataApi, type Json, type JsonObject } from '../api.js';
import {
  ConfirmButton,
  CopyButton,
  Form,
  FormActions,
  MessageLine,
  Pager,
  RolePicker,
  SelectField,
  Table,
  TextField,
} from '../components.js';
import { failureText, useFieldErrors, useMessage, useRoleNames, type Message } from '../page-state.js';
import { apiBases, go, type PageProps } from '../shell.js';
import {
  decodedSegment,
  foreignKeys,
  pageOf,
  rowPath,
  segment,
  TableCatalog,
  textOf,
  valueOf,
  type ColumnInfo,
  type Count,
  type ResourceInfo,
  type Row,
  type TableInfo,
} from './data-model.js';
import { DerivedField, ForeignKeyPicker } from './row-fields.js';
import { DataLink, RowRelations } from './row-relations.js';

/**
 * The data API through an API token: one the operator pastes, or one made here for the purpose (a hand-made token with
 * the roles picked, expiring in 8 hours). The admin token never goes to /rest: it would not open it anyway.
 */
const TOKEN_KEY = 'tessera.dataToken';
const PAGE_SIZE = 20;
const DATA_TOKEN_HOURS = 8;

interface Summary {
  written: string | undefined;
  rows: Row[];
  /** The write's `rulelog`: absent when the data API did not answer one. */
  firings?: Firing[];
}

/** One rule that fired in a write, as `rulelog=true` answers it (only rows and columns the data token may read). */
interface Firing {
  type: string;
  name: string;
  attribute?: string;
  '@metadata'?: { href?: string; resource?: string; verb?: string };
  key?: JsonObject;
  old?: Json;
  new?: Json;
  outcome?: string;
}

/** The rule log's refusal (403 / 4030) when the data token's roles lack meta access: the write is sent again without asking for it. */
const RULE_LOG_REFUSED = /rule log/i;

/**
 * Where the page is, from its address: `/admin/data/<resource>[/<key>][?sysfilter=...]`, the key as the API's URLs
 * spell it, the sysfilter a relation's (the children of one row). A new object at every move, so that opening the
 * same row again reads it again.
 */
interface DataRoute {
  resource?: string;
  key?: string;
  sysfilter?: string;
}

function dataRoute(): DataRoute {
  const [resource, key, ...more] = location.pathname.replace(/^\/admin\/data\/?/, '').split('/');
  const name = resource ? decodedSegment(resource) : undefined;
  const sysfilter = new URLSearchParams(location.search).get('sysfilter') ?? undefined;
  // A key is one path segment: it goes into a data API URL as it is, and must not lead anywhere else (`..`, another path).
  const oneSegment = key !== undefined && key !== '' && more.length === 0 && !['.', '..'].includes(decodedSegment(key));
  return { resource: name, key: oneSegment ? key : undefined, sysfilter };
}

/** The row editor: on a row of `resource` as read (none for a new one), and the fields changed since. */
interface Editor {
  resource: string;
  row?: Row;
  edits: Record<string, string>;
}

export function DataPage({ api, onUnauthorized }: PageProps) {
  const bases = apiBases();
  const [base, setBase] = useState(bases[0] ?? '/rest/default/demo/v1');
  const [token, setToken] = useState(() => sessionStorage.getItem(TOKEN_KEY) ?? '');
  const [pasted, setPasted] = useState('');
  const { message, setMessage, fail } = useMessage<Message & { stale?: boolean }>(onUnauthorized);
  const roles = useRoleNames(api, fail);
  // The data API's refusals concern the data token (expired, disabled, too few rights), never the admin session.
  const dataFail = (failure: unknown) => setMessage({ kind: 'error', text: `The data API refused: ${failureText(failure)}` });
  const [pickedRoles, setPickedRoles] = useState<string[]>([]);
  const [made, setMade] = useState<string>();
  const [route, setRoute] = useState(dataRoute);
  const [resources, setResources] = useState<ResourceInfo[]>([]);
  /** The resource's table as `@tables` describes it: undefined while it loads, null when it cannot be described. */
  const [table, setTable] = useState<TableInfo | null>();
  const [filter, setFilter] = useState('');
  const [order, setOrder] = useState('');
  const [applied, setApplied] = useState({ filter: '', order: '' });
  const [offset, setOffset] = useState(0);
  /** The page of rows shown, and the resource it is of (a list of the previous resource is not shown under the next one's columns). */
  const [listed, setListed] = useState<{ resource: string; rows: Row[]; hasMore: boolean }>();
  const [count, setCount] = useState<Count>();
  const [open, setOpen] = useState<Editor>();
  const [summary, setSummary] = useState<Summary>();
  const [reload, setReload] = useState(0);

  const data = useMemo(() => (token ? new DataApi(base, token) : undefined), [token, base]);
  const catalog = useMemo(() => data && new TableCatalog(data), [data]);
  const wanted = route.resource?.toLowerCase();
  const resource = wanted === undefined ? resources[0] : resources.find((r) => r.name.toLowerCase() === wanted);
  const resourceName = resource?.name ?? '';
  /** Counts, pickers and relations are for table resources; a custom resource's documents are edited as they are. */
  const tableBased = resource !== undefined && (resource.resource_type ?? 'TableBased') === 'TableBased';
  const columns: ColumnInfo[] = table?.columns ?? [];
  const rows = listed?.resource === resourceName ? listed.rows : [];

  useEffect(() => {
    const onMove = () => setRoute(dataRoute());
    addEventListener('popstate', onMove);
    return () => removeEventListener('popstate', onMove);
  }, []);

  const adoptToken = (value: string) => {
    sessionStorage.setItem(TOKEN_KEY, value);
    setToken(value);
  };
  useEffect(() => {
    if (!data) return;
    data.get<ResourceInfo[]>('@resources').then(
      (list) => {
        setResources(list);
        setMessage(undefined);
      },
      (failure: unknown) => {
        const why = failureText(failure);
        // 403: the token works, but none of its roles may use the meta endpoints (metaAccess), so the resources cannot be listed.
        const text =
          failure instanceof ApiFailure && failure.status === 403
            ? `The data token's roles may not list the API's resources (that needs a role with meta access): ${why}`
            : `The data token was refused: ${why}`;
        setMessage({ kind: 'error', text });
      },
    );
  }, [data]);
  useEffect(() => {
    if (resources.length > 0 && route.resource !== undefined && !resource) {
      setMessage({ kind: 'error', text: `The data token's roles do not list a resource "${route.resource}".` });
    }
  }, [resources, route.resource]);
  // Another resource: its columns, and none of the previous one's filter, sort, page or summary.
  useEffect(() => {
    setTable(undefined);
    setFilter('');
    setOrder('');
    setApplied({ filter: '', order: '' });
    setSummary(undefined);
    setOffset(0);
    if (!catalog || !resource) return;
    void catalog.table(resource.table, resource.readOnly).then((described) => setTable(described ?? null));
  }, [catalog, resourceName]);
  // The row the address names, read afresh; none: the editor closes (a new row being written stays open).
  useEffect(() => {
    if (!data || !resource) return;
    setErrors({});
    if (route.key === undefined) {
      setOpen((editor) => (editor?.row || editor?.resource !== resource.name ? undefined : editor));
      return;
    }
    data.get<Row[]>(`${segment(resource.name)}/${route.key}`).then((found) => {
      const [row] = found;
      if (row) setOpen({ resource: resource.name, row, edits: {} });
      else setMessage({ kind: 'error', text: `No ${resource.name} with that key that this token may read.` });
    }, dataFail);
  }, [data, resourceName, route]);
  const listQuery = () => {
    const query = new URLSearchParams();
    if (applied.filter.trim()) query.set('filter', applied.filter.trim());
    if (route.sysfilter) query.set('sysfilter', route.sysfilter);
    return query;
  };
  useEffect(() => {
    if (!data || !resource) return;
    const query = listQuery();
    query.set('pagesize', String(PAGE_SIZE));
    query.set('offset', String(offset));
    if (applied.order.trim()) query.set('order', applied.order.trim());
    data
      .get<Row[]>(`${segment(resource.name)}?${query.toString()}`)
      .then((answer) => setListed({ resource: resource.name, ...pageOf(answer) }), dataFail);
  }, [data, resourceName, applied, route.sysfilter, offset, reload]);
  // The total: @count counts as the list reads (the token's row filters applied), without reading the rows.
  useEffect(() => {
    setCount(undefined);
    if (!data || !resource || !tableBased) return;
    data.get<Count>(`@count/${segment(resource.name)}?${listQuery().toString()}`).then(setCount, () => undefined);
  }, [data, resourceName, applied, route.sysfilter, reload]);

  const columnNames =
    columns.length > 0 ? columns.map((c) => c.name) : Object.keys(rows[0] ?? open?.row ?? {}).filter((k) => k !== '@metadata');
  // The API leaves out the columns the token's roles may not read: the list and the editor of a row do too.
  const listColumns = rows.length > 0 ? columnNames.filter((name) => rows.some((row) => name in row)) : columnNames;
  const derived = new Set(columns.filter((c) => c.derived).map((c) => c.name));
  const pickers = tableBased ? foreignKeys(table ?? undefined) : new Map<string, never>();
  // A refusal from the data API concerns the data token, not the admin session: it never signs the operator out.
  const { errors, setErrors, submit } = useFieldErrors(columnNames, setMessage, () => undefined);

  /** The page's address for the list (the relation's filter kept), or for one of its rows (`path`: `customer/Alpha%20and%20Sons`). */
  const here = (path?: string) =>
    `data/${path ?? segment(resourceName)}${route.sysfilter ? `?${new URLSearchParams({ sysfilter: route.sysfilter }).toString()}` : ''}`;
  /** The editor on `row` as it is (on an empty row to insert, without one). */
  const openRow = (row?: Row) => {
    setErrors({});
    setOpen({ resource: resourceName, row, edits: {} });
  };
  const textIn = (editor: Editor, name: string) => editor.edits[name] ?? (editor.row ? textOf(editor.row[name]) : '');

  const refreshOpen = async () => {
    if (!data || !resource || !open?.row) return;
    const fresh = await data.get<Row[] | Row>(rowPath(resource, open.row, base));
    const row = Array.isArray(fresh) ? fresh[0] : fresh;
    if (row) {
      openRow(row);
      setMessage({ kind: 'info', text: 'Reloaded: the row as it is now.' });
    }
  };

  const write = async (method: 'POST' | 'PUT' | 'DELETE') => {
    if (!data || !resource || !open) return;
    const row = open.row;
    const body: JsonObject = {};
    // Derived columns are never sent: a rule computes them, and the API would refuse a value.
    for (const column of columnNames.filter((name) => !derived.has(name))) {
      const info = columns.find((c) => c.name === column);
      const text = textIn(open, column);
      if (method === 'POST') {
        // Left out, not sent empty: the column's default or a rule fills it, or the API says it is needed.
        if (text === '') continue;
        body[column] = valueOf(text, info, undefined);
      } else if (row && text !== textOf(row[column])) body[column] = valueOf(text, info, row[column]);
    }
    const checksum = row?.['@metadata']?.checksum ?? '';
    const href = row?.['@metadata']?.href;
    const path = row ? rowPath(resource, row, base) : segment(resource.name);
    /** The write, asking for its rule log; sent again without it when the token's roles may not have one (nothing was written then). */
    const send = async (ruleLog: boolean): Promise<{ txsummary?: Row[]; rulelog?: Firing[] }> => {
      const query = ruleLog ? 'rulelog=true' : '';
      const at = (extra: string) => `${path}?${[extra, query].filter(Boolean).join('&')}`;
      try {
        if (method === 'DELETE') return await data.send('DELETE', at(`checksum=${encodeURIComponent(checksum)}`));
        if (method === 'PUT') return await data.send('PUT', at(''), { '@metadata': { checksum }, ...body });
        return await data.send('POST', at(''), body);
      } catch (failure) {
        if (ruleLog && failure instanceof ApiFailure && failure.status === 403 && RULE_LOG_REFUSED.test(failure.message))
          return send(false);
        throw failure;
      }
    };
    await submit(
      async () => {
        let answer: { txsummary?: Row[]; rulelog?: Firing[] };
        try {
          answer = await send(true);
        } catch (failure) {
          if (!(failure instanceof ApiFailure && failure.status === 409 && failure.errorCode === 4090)) throw failure;
          setMessage({
            kind: 'error',
            text: 'This row was changed by someone else since you opened it. Reload it, then make your change again.',
            stale: true,
          });
          return;
        }
        const written =
          method === 'POST' ? answer.txsummary?.find((r) => r['@metadata']?.resource === resource.name)?.['@metadata']?.href : href;
        setSummary({ written, rows: answer.txsummary ?? [], firings: answer.rulelog });
        setMessage({ kind: 'ok', text: method === 'DELETE' ? 'Deleted.' : method === 'PUT' ? 'Saved.' : 'Inserted.' });
        setOpen(undefined);
        if (row) go(here());
        setReload(reload + 1);
      },
      (_failure, { byField, rest }) => {
        // The data API names columns in quotes: Column "credit_limit" must be a number.
        for (const part of [...rest]) {
          // ... and a duplicate key by its constraint: unique: customer.name.
          const named = columnNames.find(
            (c) => part.includes(`"${c}"`) || part.includes(`${resource.table}.${c}.`) || part.endsWith(`${resource.table}.${c}`),
          );
          if (named) {
            byField[named] = byField[named] ? `${byField[named]}; ${part}` : part;
            rest.splice(rest.indexOf(part), 1);
          }
        }
        if (rest.length === 0) rest.push('Not saved: see the fields marked below.');
      },
    );
  };

  const makeToken = async () => {
    try {
      const expiration = new Date(Date.now() + DATA_TOKEN_HOURS * 3600_000).toISOString();
      const answer = await api.send<{ apikey: string }>('POST', '/tokens', {
        label: `console data ${new Date().toISOString()}`,
        roles: pickedRoles,
        expiration,
      });
      setMade(answer.apikey);
      adoptToken(answer.apikey);
    } catch (failure) {
      fail(failure);
    }
  };

  /** One column of the editor: derived ones as text, foreign keys as pickers over their parent, the rest as inputs. */
  const editorField = (editor: Editor, name: string) => {
    const info = columns.find((c) => c.name === name);
    const value = textIn(editor, name);
    const hint = info ? `${info.type}${info.nullable ? ', may be empty' : ''}${info.generated ? ', generated' : ''}` : undefined;
    if (derived.has(name))
      return <DerivedField key={name} label={name} name={name} value={value} hint={`${info?.type ?? ''}, derived by a rule`} />;
    const field = {
      label: name,
      name,
      value,
      onInput: (text: string) => setOpen({ ...editor, edits: { ...editor.edits, [name]: text } }),
      error: errors[name],
      disabled: !!editor.row && !!resource && (info?.primaryKey ?? resource.primaryKey.includes(name)),
      hint,
    };
    const foreign = pickers.get(name);
    if (foreign && catalog)
      return <ForeignKeyPicker key={name} catalog={catalog} parent={foreign.parent} parentColumn={foreign.parentColumn} {...field} />;
    return <TextField key={name} {...field} />;
  };

  return (
    <section aria-labelledby="data-title">
      <h1 id="data-title">Data</h1>
      <details class="panel" open={!token}>
        <summary>Data token {token ? '(set)' : '(needed)'}</summary>
        <p>
          Data calls use an API token, never your admin token. Paste one (from a login at @authentication or from Auth tokens), or make one
          here with the roles to work with; it expires in {DATA_TOKEN_HOURS} hours and is kept in this tab only.
        </p>
        {bases.length > 1 && <SelectField label="API" name="apiBase" value={base} options={bases} onChange={setBase} />}
        <Form
          class="inline-form"
          onSubmit={() => {
            adoptToken(pasted.trim());
            setPasted('');
          }}
        >
          <TextField label="Paste an API token" name="dataToken" type="password" value={pasted} onInput={setPasted} />
          <button type="submit">Use this token</button>
        </Form>
        <Form onSubmit={makeToken}>
          <RolePicker roles={roles} value={pickedRoles} onChange={setPickedRoles} />
          <button type="submit">Make a data token</button>
        </Form>
        {made && (
          <p class="key-line">
            New data token (listed under Auth tokens): <code>{made}</code> <CopyButton text={made} />
          </p>
        )}
        {token && (
          <button type="button" class="secondary" onClick={() => adoptToken('')}>
            Forget the data token
          </button>
        )}
      </details>
      <MessageLine message={message}>
        {' '}
        {message?.stale && (
          <button type="button" onClick={() => void refreshOpen().catch(dataFail)}>
            Reload the row
          </button>
        )}
      </MessageLine>
      {summary && (
        <div class="panel txsummary" aria-label="Transaction summary">
          <h2>Transaction summary</h2>
          <p class="hint">Rows changed by rules are highlighted.</p>
          <ul>
            {summary.rows.map((row, index) => {
              const meta = row['@metadata'];
              const byRule = meta?.href !== summary.written;
              return (
                <li key={index} class={byRule ? 'by-rule' : 'written'}>
                  <strong>{meta?.verb}</strong> {meta?.resource} {byRule && <em>(by a rule)</em>}
                  <code>{JSON.stringify(Object.fromEntries(Object.entries(row).filter(([k]) => k !== '@metadata')))}</code>
                </li>
              );
            })}
          </ul>
          {summary.firings && <RuleLogPanel firings={summary.firings} />}
        </div>
      )}
      {token && (
        <>
          <Form
            class="toolbar"
            onSubmit={() => {
              setOffset(0);
              setApplied({ filter, order });
            }}
          >
            <div class="field">
              <label for="resource">Resource</label>
              <select id="resource" value={resourceName} onChange={(e) => go(`data/${segment(e.currentTarget.value)}`)}>
                {resources.map((r) => (
                  <option key={r.name} value={r.name}>
                    {r.name}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="filter">Filter</label>
              <input id="filter" placeholder="credit_limit > 1000" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
            </div>
            <div class="field">
              <label for="order">Sort</label>
              <input id="order" placeholder="name desc" value={order} onInput={(e) => setOrder(e.currentTarget.value)} />
            </div>
            <button type="submit">Apply</button>
            {resource?.readOnly ? (
              <span class="hint">A view: read-only.</span>
            ) : (
              <button type="button" class="secondary" onClick={() => openRow()}>
                Insert a row
              </button>
            )}
          </Form>
          {route.sysfilter && (
            <p class="relation-filter">
              Only the rows where <code>{route.sysfilter}</code> (a relation of the row you came from).{' '}
              <DataLink path={segment(resourceName)}>Show all rows</DataLink>
            </p>
          )}
          {open && resource && open.resource === resource.name && (table !== undefined || !tableBased) && (
            <Form class="panel row-editor" label={open.row ? 'Edit row' : 'New row'} onSubmit={() => write(open.row ? 'PUT' : 'POST')}>
              <h2>
                {open.row
                  ? `Edit ${resource.name} ${resource.primaryKey.map((k) => textOf(open.row?.[k])).join(', ')}`
                  : `New ${resource.name}`}
              </h2>
              <div class="grid">{columnNames.filter((name) => !open.row || name in open.row).map((name) => editorField(open, name))}</div>
              <FormActions
                submit={open.row ? 'Save' : 'Insert'}
                cancel="Close"
                onCancel={() => (open.row ? go(here()) : setOpen(undefined))}
              >
                {open.row && (
                  <ConfirmButton class="danger" question="Delete this row?" onConfirmed={() => write('DELETE')}>
                    Delete
                  </ConfirmButton>
                )}
              </FormActions>
              {open.row && tableBased && catalog && (
                <RowRelations catalog={catalog} base={base} table={table ?? undefined} row={open.row} />
              )}
            </Form>
          )}
          <Table class="data-table" columns={resource?.readOnly ? listColumns : ['Open', ...listColumns]}>
            {rows.map((row, index) => (
              <tr key={row['@metadata']?.href ?? index}>
                {!resource?.readOnly && (
                  <td>
                    <button
                      type="button"
                      class="link"
                      aria-label={`Open row ${index + 1}`}
                      onClick={() => resource && go(here(rowPath(resource, row, base)))}
                    >
                      Open
                    </button>
                  </td>
                )}
                {listColumns.map((name) => (
                  <td key={name}>{textOf(row[name])}</td>
                ))}
              </tr>
            ))}
          </Table>
          <Pager
            offset={offset}
            pagesize={PAGE_SIZE}
            shown={rows.length}
            hasMore={listed?.resource === resourceName && listed.hasMore}
            total={count?.count}
            atLeast={count?.more}
            onOffset={setOffset}
          />
        </>
      )}
    </section>
  );
}

/** A firing's row as people read it: its resource and key (`main:customer Alpha and Sons`). */
function firingRow(firing: Firing): string {
  const key = Object.values(firing.key ?? {})
    .map((value) => textOf(value))
    .join(', ');
  return [firing['@metadata']?.resource, key].filter(Boolean).join(' ') || 'the whole transaction';
}

/** A value as the log shows it: `null` for NULL, else its text. */
const shownValue = (value: Json | undefined) => (value === null || value === undefined ? 'null' : textOf(value));

/**
 * The write's rule log, folded: every rule that fired, in the order it ran, on the rows the data token may read; what a
 * derivation did to its attribute (old → new), or whether a check passed and an event ran.
 */
function RuleLogPanel({ firings }: { firings: Firing[] }) {
  return (
    <details class="rulelog" aria-label="Rule log">
      <summary>
        Rule log: {firings.length} {firings.length === 1 ? 'rule' : 'rules'} fired
      </summary>
      <ol>
        {firings.map((firing, index) => (
          <li key={index} data-rule={firing.name}>
            <strong>{firing.name}</strong> on {firingRow(firing)}
            {firing.outcome === undefined ? (
              <span class="change">
                {' '}
                {firing.attribute}: <code>{shownValue(firing.old)}</code> → <code>{shownValue(firing.new)}</code>
              </span>
            ) : (
              <span class="outcome"> {firing.outcome}</span>
            )}
          </li>
        ))}
      </ol>
    </details>
  );
}
