import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, DataApi, type Json, type JsonObject } from '../api.js';
import { ConfirmButton, CopyButton, Form, FormActions, MessageLine, Pager, RolePicker, Table, TextField } from '../components.js';
import { failureText, useFieldErrors, useMessage, useRoleNames, type Message } from '../page-state.js';
import { apiBases, type PageProps } from '../shell.js';

/**
 * The data API through an API token: one the operator pastes, or one made here for the purpose (a hand-made token with
 * the roles picked, expiring in 8 hours). The admin token never goes to /rest: it would not open it anyway.
 */
const TOKEN_KEY = 'tessera.dataToken';
const PAGE_SIZE = 20;
const DATA_TOKEN_HOURS = 8;

interface ResourceInfo {
  name: string;
  table: string;
  primaryKey: string[];
  /** A view: GET only, its columns under @views. */
  readOnly?: boolean;
}

interface ColumnInfo {
  name: string;
  type: string;
  nullable: boolean;
  generated: boolean;
  primaryKey: boolean;
}

type Row = JsonObject & { '@metadata'?: { href?: string; checksum?: string; next_batch?: string; resource?: string; verb?: string } };

interface Summary {
  written: string | undefined;
  rows: Row[];
}

function pathOf(href: string, base: string): string {
  const at = href.indexOf(`${base}/`);
  return at < 0 ? href : href.slice(at + base.length + 1);
}

/** A table name or key part as one path segment: it may hold a slash or a space; `~` joins the parts of a composite key. */
function segment(text: string): string {
  return encodeURIComponent(text).replaceAll('~', '%7E');
}

function keyPath(resource: ResourceInfo, row: Row): string {
  return `${segment(resource.name)}/${resource.primaryKey.map((column) => segment(textOf(row[column]))).join('~')}`;
}

/** A field's text back to a value of the column's kind; the API refuses (beside the field) what does not fit. */
function valueOf(text: string, column: ColumnInfo | undefined, original: Json | undefined): Json {
  if (text === '' && (column?.nullable ?? original === null)) return null;
  // A JSON column (json, jsonb, an array) takes the JSON its field spells; what is no JSON goes as the text it is, and is refused beside the field.
  if (column ? column.type === 'json' : typeof original === 'object' && original !== null) {
    try {
      return JSON.parse(text) as Json;
    } catch {
      return text;
    }
  }
  const numeric = column ? /int|decimal|number|float|double|real|numeric/i.test(column.type) : typeof original === 'number';
  if (numeric && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (column ? /bool/i.test(column.type) : typeof original === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

function textOf(value: Json | undefined): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
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
  const [resources, setResources] = useState<ResourceInfo[]>([]);
  const [resourceName, setResourceName] = useState('');
  const [columns, setColumns] = useState<ColumnInfo[]>([]);
  const [filter, setFilter] = useState('');
  const [order, setOrder] = useState('');
  const [applied, setApplied] = useState({ filter: '', order: '' });
  const [offset, setOffset] = useState(0);
  const [rows, setRows] = useState<Row[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [open, setOpen] = useState<{ row?: Row; values: Record<string, string> }>();
  const [summary, setSummary] = useState<Summary>();
  const [reload, setReload] = useState(0);

  const data = token ? new DataApi(base, token) : undefined;
  const resource = resources.find((r) => r.name === resourceName);

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
        if (!list.some((r) => r.name === resourceName)) setResourceName(list[0]?.name ?? '');
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
  }, [token, base]);
  useEffect(() => {
    if (!data || !resource) return;
    data.get<{ columns: ColumnInfo[] }>(`${resource.readOnly ? '@views' : '@tables'}/${encodeURIComponent(resource.table)}`).then(
      (table) => setColumns(table.columns),
      () => setColumns([]),
    );
  }, [token, base, resourceName, resources]);
  useEffect(() => {
    if (!data || !resource) return;
    const query = new URLSearchParams({ pagesize: String(PAGE_SIZE), offset: String(offset) });
    if (applied.filter.trim()) query.set('filter', applied.filter.trim());
    if (applied.order.trim()) query.set('order', applied.order.trim());
    data.get<Row[]>(`${segment(resource.name)}?${query.toString()}`).then((answer) => {
      const last = answer[answer.length - 1];
      const more = last?.['@metadata']?.next_batch !== undefined && last['@metadata'].href === undefined;
      setHasMore(more);
      setRows(more ? answer.slice(0, -1) : answer);
    }, dataFail);
  }, [token, base, resourceName, resources, applied, offset, reload]);

  const columnNames = columns.length > 0 ? columns.map((c) => c.name) : Object.keys(rows[0] ?? {}).filter((k) => k !== '@metadata');
  // A refusal from the data API concerns the data token, not the admin session: it never signs the operator out.
  const { errors, setErrors, submit } = useFieldErrors(columnNames, setMessage, () => undefined);

  /** The row editor on `row` as it is (on an empty row to insert, without one). */
  const fillEditor = (row?: Row) => {
    const values: Record<string, string> = {};
    for (const name of columnNames) values[name] = row ? textOf(row[name]) : '';
    setOpen({ row, values });
  };
  const openRow = (row?: Row) => {
    setErrors({});
    setMessage(undefined);
    fillEditor(row);
  };

  const refreshOpen = async () => {
    if (!data || !resource || !open?.row) return;
    const href = open.row['@metadata']?.href;
    const fresh = await data.get<Row[] | Row>(href ? pathOf(href, base) : keyPath(resource, open.row));
    const row = Array.isArray(fresh) ? fresh[0] : fresh;
    if (row) {
      fillEditor(row);
      setMessage({ kind: 'info', text: 'Reloaded: the row as it is now.' });
    }
  };

  const write = async (method: 'POST' | 'PUT' | 'DELETE') => {
    if (!data || !resource || !open) return;
    const row = open.row;
    const body: JsonObject = {};
    for (const column of columnNames) {
      const info = columns.find((c) => c.name === column);
      const text = open.values[column] ?? '';
      if (method === 'POST') {
        // Left out, not sent empty: the column's default or a rule fills it, or the API says it is needed.
        if (text === '') continue;
        body[column] = valueOf(text, info, undefined);
      } else if (row && text !== textOf(row[column])) body[column] = valueOf(text, info, row[column]);
    }
    const checksum = row?.['@metadata']?.checksum ?? '';
    const href = row?.['@metadata']?.href;
    const path = row ? (href ? pathOf(href, base) : keyPath(resource, row)) : segment(resource.name);
    await submit(
      async () => {
        let answer: { txsummary?: Row[] };
        try {
          if (method === 'DELETE') answer = await data.send('DELETE', `${path}?checksum=${encodeURIComponent(checksum)}`);
          else if (method === 'PUT') answer = await data.send('PUT', path, { '@metadata': { checksum }, ...body });
          else answer = await data.send('POST', path, body);
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
        setSummary({ written, rows: answer.txsummary ?? [] });
        setMessage({ kind: 'ok', text: method === 'DELETE' ? 'Deleted.' : method === 'PUT' ? 'Saved.' : 'Inserted.' });
        setOpen(undefined);
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

  return (
    <section aria-labelledby="data-title">
      <h1 id="data-title">Data</h1>
      <details class="panel" open={!token}>
        <summary>Data token {token ? '(set)' : '(needed)'}</summary>
        <p>
          Data calls use an API token, never your admin token. Paste one (from a login at @authentication or from Auth tokens), or make one
          here with the roles to work with; it expires in {DATA_TOKEN_HOURS} hours and is kept in this tab only.
        </p>
        {bases.length > 1 && (
          <div class="field">
            <label for="api-base">API</label>
            <select id="api-base" value={base} onChange={(e) => setBase(e.currentTarget.value)}>
              {bases.map((b) => (
                <option key={b} value={b}>
                  {b}
                </option>
              ))}
            </select>
          </div>
        )}
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
              <select
                id="resource"
                value={resourceName}
                onChange={(e) => {
                  setResourceName(e.currentTarget.value);
                  // A filter or sort names the previous resource's columns.
                  setFilter('');
                  setOrder('');
                  setApplied({ filter: '', order: '' });
                  setRows([]);
                  setSummary(undefined);
                  setOffset(0);
                  setOpen(undefined);
                }}
              >
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
          {open && resource && (
            <Form class="panel row-editor" label={open.row ? 'Edit row' : 'New row'} onSubmit={() => write(open.row ? 'PUT' : 'POST')}>
              <h2>
                {open.row
                  ? `Edit ${resource.name} ${resource.primaryKey.map((k) => textOf(open.row?.[k])).join(', ')}`
                  : `New ${resource.name}`}
              </h2>
              <div class="grid">
                {columnNames.map((name) => {
                  const info = columns.find((c) => c.name === name);
                  return (
                    <TextField
                      key={name}
                      label={name}
                      name={name}
                      value={open.values[name] ?? ''}
                      onInput={(value) => setOpen({ ...open, values: { ...open.values, [name]: value } })}
                      error={errors[name]}
                      disabled={!!open.row && (info?.primaryKey ?? resource.primaryKey.includes(name))}
                      hint={info ? `${info.type}${info.nullable ? ', may be empty' : ''}${info.generated ? ', generated' : ''}` : undefined}
                    />
                  );
                })}
              </div>
              <FormActions submit={open.row ? 'Save' : 'Insert'} cancel="Close" onCancel={() => setOpen(undefined)}>
                {open.row && (
                  <ConfirmButton class="danger" question="Delete this row?" onConfirmed={() => write('DELETE')}>
                    Delete
                  </ConfirmButton>
                )}
              </FormActions>
            </Form>
          )}
          <Table class="data-table" columns={resource?.readOnly ? columnNames : ['Open', ...columnNames]}>
            {rows.map((row, index) => (
              <tr key={row['@metadata']?.href ?? index}>
                {!resource?.readOnly && (
                  <td>
                    <button type="button" class="link" aria-label={`Open row ${index + 1}`} onClick={() => openRow(row)}>
                      Open
                    </button>
                  </td>
                )}
                {columnNames.map((name) => (
                  <td key={name}>{textOf(row[name])}</td>
                ))}
              </tr>
            ))}
          </Table>
          <Pager offset={offset} pagesize={PAGE_SIZE} shown={rows.length} hasMore={hasMore} onOffset={setOffset} />
        </>
      )}
    </section>
  );
}
