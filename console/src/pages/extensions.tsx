import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiFailure, DataApi } from '../api.js';
import { Notice, SelectField, Table } from '../components.js';
import { failureText } from '../page-state.js';
import { apiBases, go, type PageProps } from '../shell.js';

/** The data token the Data page keeps (the meta endpoints answer API tokens only, with a role with meta access). */
const TOKEN_KEY = 'tessera.dataToken';

/** What the page reads of one API version: each list, or why it could not be read. */
interface Extensions {
  resources: Named[];
  functions: Named[];
  procedures: Named[];
  events: EventEntry[];
  versions: VersionEntry[];
}

/** An entry of `@resources`, `@functions` or `@procedures`. */
interface Named {
  name: string;
  resource_type?: string;
  description?: string | null;
}

/** An entry of `@events`. */
interface EventEntry {
  name: string;
  kind: 'request' | 'response';
  resources: string[] | null;
  methods: string[] | null;
  versions: string[] | null;
  timeoutMs: number;
  adds: string[];
}

/** An entry of `@versions`. */
interface VersionEntry {
  name: string;
  docs: string;
  customResources: Array<{ name: string; versions: string[] | null }>;
}

/** `@resources`' types of resources that are not tables or custom resources, as LAC names them. */
const NON_TABLE_TYPES: ReadonlyArray<{ type: string; title: string }> = [
  { type: 'JavaScript', title: 'Function resources' },
  { type: 'FreeSQL', title: 'SQL resources' },
  { type: 'StoredProcedure', title: 'Stored procedure resources' },
];

/** A filter as the page shows it: its values, or "every" for none. */
const text = (value: readonly string[] | null): string => (value === null ? 'every' : value.join(', '));

/** A list read from a meta endpoint; one this server does not have (404) is an empty list. */
async function list<T>(data: DataApi, path: string): Promise<T[]> {
  try {
    return (await data.get<Array<T & { '@metadata'?: { next_batch?: string } }>>(path)).filter((entry) => !entry['@metadata']?.next_batch);
  } catch (failure) {
    if (failure instanceof ApiFailure && failure.status === 404) return [];
    throw failure;
  }
}

function Section(props: { title: string; count: number; children: ComponentChildren }) {
  const id = `ext-${props.title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{props.title}</h2>
      {props.count === 0 ? <p class="none">none</p> : props.children}
    </section>
  );
}

/**
 * What the project adds to its API besides tables (README, "Extending the API"), per API version, from the meta
 * endpoints through the Data page's API token: function, SQL and procedure resources (`@resources`' `resource_type`),
 * functions (`@functions`), stored procedures (`@procedures`), request and response events (`@events`) and the API
 * versions with their own custom resources (`@versions`). An empty list reads "none".
 */
export function ExtensionsPage(_props: PageProps) {
  const bases = apiBases();
  const [base, setBase] = useState(bases[0] ?? '/rest/default/demo/v1');
  const token = sessionStorage.getItem(TOKEN_KEY) ?? '';
  const data = useMemo(() => (token ? new DataApi(base, token) : undefined), [token, base]);
  const [found, setFound] = useState<Extensions>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (!data) return;
    setError(undefined);
    Promise.all([
      list<Named>(data, '@resources'),
      list<Named>(data, '@functions'),
      list<Named>(data, '@procedures'),
      list<EventEntry>(data, '@events'),
      list<VersionEntry>(data, '@versions'),
    ]).then(
      ([resources, functions, procedures, events, versions]) => setFound({ resources, functions, procedures, events, versions }),
      (failure: unknown) => {
        setFound(undefined);
        setError(
          failure instanceof ApiFailure && failure.status === 403
            ? `The data token's roles may not read the API's meta endpoints (that needs a role with meta access): ${failureText(failure)}`
            : `The data API refused: ${failureText(failure)}`,
        );
      },
    );
  }, [data]);

  return (
    <section aria-labelledby="extensions-title">
      <h1 id="extensions-title">Extensions</h1>
      <p>What the project adds to the API besides its tables and custom resources, as each API version serves it.</p>
      {!token && (
        <Notice kind="info">
          The extensions are read through the data API with an API token: give the console one on the{' '}
          <a
            href="/admin/data"
            onClick={(event) => {
              event.preventDefault();
              go('data');
            }}
          >
            Data
          </a>{' '}
          page first (a role with meta access).
        </Notice>
      )}
      {bases.length > 1 && <SelectField label="API version" name="base" value={base} options={bases} onChange={setBase} />}
      {error && <Notice kind="error">{error}</Notice>}
      {found && (
        <>
          {NON_TABLE_TYPES.map(({ type, title }) => {
            const entries = found.resources.filter((r) => r.resource_type === type);
            return (
              <Section key={type} title={title} count={entries.length}>
                <ul>
                  {entries.map((r) => (
                    <li key={r.name}>
                      <code>{r.name}</code>
                      {typeof r.description === 'string' && ` — ${r.description}`}
                    </li>
                  ))}
                </ul>
              </Section>
            );
          })}
          <Section title="Functions" count={found.functions.length}>
            <ul>
              {found.functions.map((f) => (
                <li key={f.name}>
                  <code>{f.name}</code>
                  {typeof f.description === 'string' && ` — ${f.description}`}
                </li>
              ))}
            </ul>
          </Section>
          <Section title="Stored procedures" count={found.procedures.length}>
            <ul>
              {found.procedures.map((p) => (
                <li key={p.name}>
                  <code>{p.name}</code>
                </li>
              ))}
            </ul>
          </Section>
          {(['request', 'response'] as const).map((kind) => {
            const events = found.events.filter((e) => e.kind === kind);
            return (
              <Section key={kind} title={kind === 'request' ? 'Request events' : 'Response events'} count={events.length}>
                <Table columns={['Name', 'Resources', 'Methods', 'Versions', 'Time limit', ...(kind === 'response' ? ['Adds'] : [])]}>
                  {events.map((e) => (
                    <tr key={e.name}>
                      <td>
                        <code>{e.name}</code>
                      </td>
                      <td>{text(e.resources)}</td>
                      <td>{text(e.methods)}</td>
                      <td>{text(e.versions)}</td>
                      <td>{e.timeoutMs} ms</td>
                      {kind === 'response' && <td>{e.adds.length === 0 ? '—' : e.adds.join(', ')}</td>}
                    </tr>
                  ))}
                </Table>
              </Section>
            );
          })}
          <Section title="API versions" count={found.versions.length}>
            <Table columns={['Version', 'Documentation', 'Custom resources']}>
              {found.versions.map((v) => (
                <tr key={v.name}>
                  <td>{v.name}</td>
                  <td>
                    <a href={`${v.docs}/ui`}>@docs</a>
                  </td>
                  <td>
                    {v.customResources.length === 0
                      ? 'none'
                      : v.customResources.map((r) => (r.versions === null ? r.name : `${r.name} (${text(r.versions)} only)`)).join(', ')}
                  </td>
                </tr>
              ))}
            </Table>
          </Section>
        </>
      )}
    </section>
  );
}
