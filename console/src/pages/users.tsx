import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, type Page, type Role, type User } from '../api.js';
import {
  GlobalsEditor,
  globalsToRows,
  Notice,
  Pager,
  RolePicker,
  rowsToGlobals,
  TextField,
  formatTime,
  type GlobalRow,
} from '../components.js';
import type { PageProps } from '../shell.js';

const PAGE_SIZE = 20;
/** The most users the search reads (it filters in the browser: the admin API lists by login only). */
const SEARCH_LIMIT = 2000;
const USER_FIELDS = ['login', 'password', 'roles', 'globals', 'email', 'keyLifetimeSeconds', 'active'];

interface Draft {
  login: string;
  password: string;
  roles: string[];
  globals: GlobalRow[];
  email: string;
  keyLifetimeSeconds: string;
  active: boolean;
}

const EMPTY: Draft = { login: '', password: '', roles: [], globals: [], email: '', keyLifetimeSeconds: '', active: true };

function draftOf(user: User): Draft {
  return {
    login: user.login,
    password: '',
    roles: user.roles,
    globals: globalsToRows(user.globals),
    email: user.email ?? '',
    keyLifetimeSeconds: user.keyLifetimeSeconds === null ? '' : String(user.keyLifetimeSeconds),
    active: user.active,
  };
}

/** A number typed as text: the API says what is wrong with anything that is not one. */
function numberOrText(text: string): number | string | null {
  if (text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : text;
}

export function UsersPage({ api, onUnauthorized }: PageProps) {
  const [page, setPage] = useState<Page<User>>();
  const [offset, setOffset] = useState(0);
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<User[]>();
  const [roles, setRoles] = useState<string[]>([]);
  const [editing, setEditing] = useState<{ existing?: User; draft: Draft }>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const [resetFor, setResetFor] = useState<string>();
  const [newPassword, setNewPassword] = useState('');
  const [reload, setReload] = useState(0);

  const fail = (failure: unknown) => {
    onUnauthorized(failure);
    setMessage({ kind: 'error', text: failure instanceof Error ? failure.message : String(failure) });
  };

  useEffect(() => {
    api.get<Role[]>('/roles').then((list) => setRoles(list.map((r) => r.name)), fail);
  }, []);
  useEffect(() => {
    api.get<Page<User>>(`/users?offset=${offset}&pagesize=${PAGE_SIZE}`).then(setPage, fail);
  }, [offset, reload]);
  useEffect(() => {
    const text = search.trim().toLowerCase();
    if (text === '') {
      setFound(undefined);
      return;
    }
    const state = { cancelled: false };
    void (async () => {
      const all: User[] = [];
      for (let from = 0; from < SEARCH_LIMIT;) {
        const batch = await api.get<Page<User>>(`/users?offset=${from}&pagesize=100`);
        all.push(...batch.items);
        from += batch.items.length;
        if (batch.items.length === 0 || from >= batch.total) break;
      }
      if (!state.cancelled)
        setFound(all.filter((u) => u.login.toLowerCase().includes(text) || (u.email ?? '').toLowerCase().includes(text)));
    })().catch(fail);
    return () => {
      state.cancelled = true;
    };
  }, [search, reload]);

  const save = async () => {
    if (!editing) return;
    const { draft, existing } = editing;
    const body: Record<string, unknown> = {
      roles: draft.roles,
      globals: rowsToGlobals(draft.globals),
      email: draft.email.trim() === '' ? null : draft.email.trim(),
      keyLifetimeSeconds: numberOrText(draft.keyLifetimeSeconds),
      active: draft.active,
    };
    setErrors({});
    setMessage(undefined);
    try {
      if (existing) {
        await api.send('PATCH', `/users/${encodeURIComponent(existing.login)}`, body);
      } else {
        if (body.email === null) delete body.email;
        if (body.keyLifetimeSeconds === null) delete body.keyLifetimeSeconds;
        await api.send('POST', '/users', { login: draft.login, password: draft.password, ...body });
      }
      setMessage({ kind: 'ok', text: existing ? `User "${existing.login}" saved.` : `User "${draft.login}" created.` });
      setEditing(undefined);
      setReload(reload + 1);
    } catch (failure) {
      onUnauthorized(failure);
      if (failure instanceof ApiFailure) {
        const { byField, rest } = failure.fieldErrors(USER_FIELDS);
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

  const rows = found ?? page?.items ?? [];
  const draft = editing?.draft;
  const setDraft = (change: Partial<Draft>) => editing && setEditing({ ...editing, draft: { ...editing.draft, ...change } });
  return (
    <section aria-labelledby="users-title">
      <div class="page-head">
        <h1 id="users-title">Users</h1>
        <button
          type="button"
          onClick={() => {
            setErrors({});
            setEditing({ draft: { ...EMPTY } });
          }}
        >
          New user
        </button>
      </div>
      {message && <Notice kind={message.kind}>{message.text}</Notice>}
      {editing && draft && (
        <form
          noValidate
          class="panel"
          aria-label={editing.existing ? `Edit user ${editing.existing.login}` : 'New user'}
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <h2>{editing.existing ? `Edit ${editing.existing.login}` : 'New user'}</h2>
          <div class="grid">
            <TextField
              label="Login"
              name="login"
              value={draft.login}
              onInput={(login) => setDraft({ login })}
              error={errors.login}
              disabled={!!editing.existing}
              required
            />
            {!editing.existing && (
              <TextField
                label="Password"
                name="password"
                type="password"
                autocomplete="new-password"
                value={draft.password}
                onInput={(password) => setDraft({ password })}
                error={errors.password}
                required
              />
            )}
            <TextField
              label="Email"
              name="email"
              type="email"
              value={draft.email}
              onInput={(email) => setDraft({ email })}
              error={errors.email}
            />
            <TextField
              label="Key lifetime (seconds)"
              name="keyLifetimeSeconds"
              value={draft.keyLifetimeSeconds}
              onInput={(keyLifetimeSeconds) => setDraft({ keyLifetimeSeconds })}
              error={errors.keyLifetimeSeconds}
              hint="Empty: the service's default"
            />
          </div>
          <RolePicker roles={roles} value={draft.roles} onChange={(r) => setDraft({ roles: r })} error={errors.roles} />
          <GlobalsEditor rows={draft.globals} onChange={(globals) => setDraft({ globals })} error={errors.globals} />
          <label class="check">
            <input type="checkbox" name="active" checked={draft.active} onChange={(e) => setDraft({ active: e.currentTarget.checked })} />
            Active
          </label>
          {errors.active && <p class="field-error">{errors.active}</p>}
          <div class="actions">
            <button type="submit">{editing.existing ? 'Save' : 'Create user'}</button>
            <button type="button" class="secondary" onClick={() => setEditing(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {resetFor !== undefined && (
        <form
          noValidate
          class="panel"
          aria-label={`Reset password of ${resetFor}`}
          onSubmit={(event) => {
            event.preventDefault();
            void act(
              () => api.send('PUT', `/users/${encodeURIComponent(resetFor)}/password`, { password: newPassword }),
              `Password of "${resetFor}" reset; their tokens are disabled.`,
            ).then(() => {
              setResetFor(undefined);
              setNewPassword('');
            });
          }}
        >
          <h2>Reset the password of {resetFor}</h2>
          <TextField
            label="New password"
            name="newPassword"
            type="password"
            autocomplete="new-password"
            value={newPassword}
            onInput={setNewPassword}
            required
          />
          <div class="actions">
            <button type="submit">Set password</button>
            <button type="button" class="secondary" onClick={() => setResetFor(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <div class="toolbar">
        <label for="user-search">Search</label>
        <input
          id="user-search"
          type="search"
          placeholder="login or email"
          value={search}
          onInput={(e) => setSearch(e.currentTarget.value)}
        />
      </div>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Login</th>
              <th scope="col">Roles</th>
              <th scope="col">Email</th>
              <th scope="col">Active</th>
              <th scope="col">Last login</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((user) => (
              <tr key={user.login} data-login={user.login}>
                <td>{user.login}</td>
                <td>{user.roles.join(', ')}</td>
                <td>{user.email ?? ''}</td>
                <td>{user.active ? 'yes' : 'no'}</td>
                <td>{formatTime(user.lastLoginTs)}</td>
                <td class="row-actions">
                  <button
                    type="button"
                    class="link"
                    onClick={() => {
                      setErrors({});
                      setEditing({ existing: user, draft: draftOf(user) });
                    }}
                  >
                    Edit
                  </button>
                  <button type="button" class="link" onClick={() => setResetFor(user.login)}>
                    Reset password
                  </button>
                  {user.active && (
                    <button
                      type="button"
                      class="link"
                      onClick={() =>
                        void act(
                          () => api.send('PATCH', `/users/${encodeURIComponent(user.login)}`, { active: false }),
                          `"${user.login}" deactivated.`,
                        )
                      }
                    >
                      Deactivate
                    </button>
                  )}
                  <button
                    type="button"
                    class="link danger"
                    onClick={() => {
                      if (confirm(`Delete the user "${user.login}"?`))
                        void act(() => api.send('DELETE', `/users/${encodeURIComponent(user.login)}`), `"${user.login}" deleted.`);
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
      {found ? <p>{found.length} found</p> : page && <Pager offset={offset} pagesize={PAGE_SIZE} total={page.total} onOffset={setOffset} />}
    </section>
  );
}
