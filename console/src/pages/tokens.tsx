import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, type Page, type Role, type Token } from '../api.js';
import {
  CopyButton,
  formatTime,
  GlobalsEditor,
  Notice,
  Pager,
  RolePicker,
  rowsToGlobals,
  TextField,
  type GlobalRow,
} from '../components.js';
import type { PageProps } from '../shell.js';

const PAGE_SIZE = 20;
const TOKEN_FIELDS = ['label', 'key', 'userIdentifier', 'roles', 'globals', 'expiration'];

interface Draft {
  label: string;
  chooseKey: boolean;
  key: string;
  userIdentifier: string;
  roles: string[];
  globals: GlobalRow[];
  expiration: string;
}

const EMPTY: Draft = { label: '', chooseKey: false, key: '', userIdentifier: '', roles: [], globals: [], expiration: '' };

/** The body of POST /admin/v1/tokens from the form: a datetime-local value is the browser's local time. */
export function tokenBody(draft: Draft): Record<string, unknown> {
  const body: Record<string, unknown> = { label: draft.label, roles: draft.roles, globals: rowsToGlobals(draft.globals) };
  if (draft.chooseKey) body.key = draft.key;
  if (draft.userIdentifier.trim() !== '') body.userIdentifier = draft.userIdentifier.trim();
  if (draft.expiration !== '') {
    const when = new Date(draft.expiration);
    body.expiration = Number.isNaN(when.getTime()) ? draft.expiration : when.toISOString();
  }
  return body;
}

export function TokensPage({ api, onUnauthorized }: PageProps) {
  const [page, setPage] = useState<Page<Token>>();
  const [offset, setOffset] = useState(0);
  const [roles, setRoles] = useState<string[]>([]);
  const [draft, setDraft] = useState<Draft>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string }>();
  /** The key of the token just created: shown once, never fetched again (the API keeps only its hash). */
  const [created, setCreated] = useState<{ id: number; label: string; apikey: string }>();
  const [reload, setReload] = useState(0);

  const fail = (failure: unknown) => {
    onUnauthorized(failure);
    setMessage({ kind: 'error', text: failure instanceof Error ? failure.message : String(failure) });
  };
  useEffect(() => {
    api.get<Role[]>('/roles').then((list) => setRoles(list.map((r) => r.name)), fail);
  }, []);
  useEffect(() => {
    api.get<Page<Token>>(`/tokens?offset=${offset}&pagesize=${PAGE_SIZE}`).then(setPage, fail);
  }, [offset, reload]);

  const create = async () => {
    if (!draft) return;
    setErrors({});
    setMessage(undefined);
    try {
      const answer = await api.send<{ id: number; label: string; apikey: string }>('POST', '/tokens', tokenBody(draft));
      setCreated(answer);
      setDraft(undefined);
      setReload(reload + 1);
    } catch (failure) {
      onUnauthorized(failure);
      if (failure instanceof ApiFailure) {
        const { byField, rest } = failure.fieldErrors(TOKEN_FIELDS);
        setErrors(byField);
        if (rest.length > 0) setMessage({ kind: 'error', text: rest.join('; ') });
      } else fail(failure);
    }
  };
  const act = async (what: () => Promise<unknown>, done: string) => {
    setMessage(undefined);
    try {
      await what();
      setMessage({ kind: 'ok', text: done });
      setReload(reload + 1);
    } catch (failure) {
      fail(failure);
    }
  };
  const change = (part: Partial<Draft>) => draft && setDraft({ ...draft, ...part });

  return (
    <section aria-labelledby="tokens-title">
      <div class="page-head">
        <h1 id="tokens-title">Auth tokens</h1>
        <button
          type="button"
          onClick={() => {
            setErrors({});
            setCreated(undefined);
            setDraft({ ...EMPTY });
          }}
        >
          New token
        </button>
      </div>
      {message && <Notice kind={message.kind}>{message.text}</Notice>}
      {created && (
        <div class="panel key-once" role="status">
          <h2>Token "{created.label}" created</h2>
          <p>Copy its key now: it is shown this once and cannot be read again.</p>
          <p class="key-line">
            <code class="new-key">{created.apikey}</code> <CopyButton text={created.apikey} />
          </p>
          <button type="button" class="secondary" onClick={() => setCreated(undefined)}>
            Done
          </button>
        </div>
      )}
      {draft && (
        <form
          noValidate
          class="panel"
          aria-label="New token"
          onSubmit={(event) => {
            event.preventDefault();
            void create();
          }}
        >
          <h2>New token</h2>
          <div class="grid">
            <TextField
              label="Label"
              name="label"
              value={draft.label}
              onInput={(label) => change({ label })}
              error={errors.label}
              required
            />
            <TextField
              label="User identifier"
              name="userIdentifier"
              value={draft.userIdentifier}
              onInput={(userIdentifier) => change({ userIdentifier })}
              error={errors.userIdentifier}
              hint="Optional; not a user's login"
            />
            <TextField
              label="Expiration"
              name="expiration"
              type="datetime-local"
              value={draft.expiration}
              onInput={(expiration) => change({ expiration })}
              error={errors.expiration}
              hint="Empty: never expires"
            />
          </div>
          <fieldset class="field" data-field="key">
            <legend>Key</legend>
            <label class="check">
              <input type="radio" name="keyChoice" checked={!draft.chooseKey} onChange={() => change({ chooseKey: false })} />
              Generated by Tessera
            </label>
            <label class="check">
              <input type="radio" name="keyChoice" checked={draft.chooseKey} onChange={() => change({ chooseKey: true })} />
              Chosen
            </label>
          </fieldset>
          {draft.chooseKey && (
            <TextField
              label="Chosen key"
              name="key"
              value={draft.key}
              onInput={(key) => change({ key })}
              error={errors.key}
              hint="16 to 200 of A-Z a-z 0-9 . _ ~ -"
            />
          )}
          {!draft.chooseKey && errors.key && <p class="field-error">{errors.key}</p>}
          <RolePicker roles={roles} value={draft.roles} onChange={(r) => change({ roles: r })} error={errors.roles} />
          <GlobalsEditor rows={draft.globals} onChange={(globals) => change({ globals })} error={errors.globals} />
          <div class="actions">
            <button type="submit">Create token</button>
            <button type="button" class="secondary" onClick={() => setDraft(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Label</th>
              <th scope="col">User identifier</th>
              <th scope="col">Roles</th>
              <th scope="col">Origin</th>
              <th scope="col">Status</th>
              <th scope="col">Expiration</th>
              <th scope="col">Last used</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {(page?.items ?? []).map((token) => (
              <tr key={token.id} data-token-id={token.id}>
                <td>{token.label}</td>
                <td>{token.userIdentifier ?? ''}</td>
                <td>{token.roles.join(', ')}</td>
                <td>{token.origin}</td>
                <td class={`status ${token.status}`}>{token.status}</td>
                <td>{token.expiration === null ? 'never' : formatTime(token.expiration)}</td>
                <td>{formatTime(token.lastUsed)}</td>
                <td class="row-actions">
                  {token.status === 'active' && (
                    <button
                      type="button"
                      class="link"
                      onClick={() => void act(() => api.send('POST', `/tokens/${token.id}/disable`), `Token "${token.label}" disabled.`)}
                    >
                      Disable
                    </button>
                  )}
                  <button
                    type="button"
                    class="link danger"
                    onClick={() => {
                      if (confirm(`Delete the token "${token.label}"?`))
                        void act(() => api.send('DELETE', `/tokens/${token.id}`), `Token "${token.label}" deleted.`);
                    }}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {page && <Pager offset={offset} pagesize={PAGE_SIZE} total={page.total} onOffset={setOffset} />}
    </section>
  );
}
