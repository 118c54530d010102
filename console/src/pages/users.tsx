import { useEffect, useState } from 'preact/hooks';
import type { Page, User } from '../api.js';
import {
  AccessFields,
  DeleteButton,
  Form,
  FormActions,
  globalsToRows,
  MessageLine,
  ListPager,
  PageHead,
  ResetPasswordForm,
  rowsToGlobals,
  Table,
  TextField,
  formatTime,
  type GlobalRow,
} from '../components.js';
import { fieldsOf, useFieldErrors, useMessage, usePagedList, useRoleNames } from '../page-state.js';
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
  const messages = useMessage(onUnauthorized);
  const { message, setMessage, fail } = messages;
  const list = usePagedList<User>(api, '/users', PAGE_SIZE, messages);
  const roles = useRoleNames(api, fail);
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<User[]>();
  const [editing, setEditing] = useState<{ existing?: User; draft: Draft }>();
  const { errors, setErrors, submit } = useFieldErrors(USER_FIELDS, setMessage, onUnauthorized);
  const [resetFor, setResetFor] = useState<string>();

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
  }, [search, list.reloads]);

  const save = (existing: User | undefined, draft: Draft) =>
    submit(async () => {
      const body: Record<string, unknown> = {
        roles: draft.roles,
        globals: rowsToGlobals(draft.globals),
        email: draft.email.trim() === '' ? null : draft.email.trim(),
        keyLifetimeSeconds: numberOrText(draft.keyLifetimeSeconds),
        active: draft.active,
      };
      if (existing) {
        await api.send('PATCH', `/users/${encodeURIComponent(existing.login)}`, body);
      } else {
        if (body.email === null) delete body.email;
        if (body.keyLifetimeSeconds === null) delete body.keyLifetimeSeconds;
        await api.send('POST', '/users', { login: draft.login, password: draft.password, ...body });
      }
      setMessage({ kind: 'ok', text: existing ? `User "${existing.login}" saved.` : `User "${draft.login}" created.` });
      setEditing(undefined);
      list.reload();
    });
  const edit = (existing?: User) => {
    setErrors({});
    setEditing({ existing, draft: existing ? draftOf(existing) : { ...EMPTY } });
  };

  const rows = found ?? list.page?.items ?? [];
  const draft = editing?.draft;
  const setDraft = (change: Partial<Draft>) => editing && setEditing({ ...editing, draft: { ...editing.draft, ...change } });
  const field = draft && fieldsOf(draft, setDraft, errors);
  return (
    <section aria-labelledby="users-title">
      <PageHead id="users-title" title="Users" newLabel="New user" onNew={() => edit()} />
      <MessageLine message={message} />
      {editing && draft && field && (
        <Form
          class="panel"
          label={editing.existing ? `Edit user ${editing.existing.login}` : 'New user'}
          onSubmit={() => save(editing.existing, draft)}
        >
          <h2>{editing.existing ? `Edit ${editing.existing.login}` : 'New user'}</h2>
          <div class="grid">
            <TextField label="Login" {...field('login')} disabled={!!editing.existing} required />
            {!editing.existing && <TextField label="Password" type="new-password" {...field('password')} required />}
            <TextField label="Email" type="email" {...field('email')} />
            <TextField label="Key lifetime (seconds)" {...field('keyLifetimeSeconds')} hint="Empty: the service's default" />
          </div>
          <AccessFields roles={roles} value={draft} onChange={setDraft} errors={errors} />
          <label class="check">
            <input type="checkbox" name="active" checked={draft.active} onChange={(e) => setDraft({ active: e.currentTarget.checked })} />
            Active
          </label>
          {errors.active && <p class="field-error">{errors.active}</p>}
          <FormActions submit={editing.existing ? 'Save' : 'Create user'} onCancel={() => setEditing(undefined)} />
        </Form>
      )}
      {resetFor !== undefined && (
        <ResetPasswordForm
          target={resetFor}
          onSubmit={(password) =>
            list.run(
              () => api.send('PUT', `/users/${encodeURIComponent(resetFor)}/password`, { password }),
              `Password of "${resetFor}" reset; their tokens are disabled.`,
            )
          }
          onClose={() => setResetFor(undefined)}
        />
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
      <Table columns={['Login', 'Roles', 'Email', 'Active', 'Last login', 'Actions']}>
        {rows.map((user) => (
          <tr key={user.login} data-login={user.login}>
            <td>{user.login}</td>
            <td>{user.roles.join(', ')}</td>
            <td>{user.email ?? ''}</td>
            <td>{user.active ? 'yes' : 'no'}</td>
            <td>{formatTime(user.lastLoginTs)}</td>
            <td class="row-actions">
              <button type="button" class="link" onClick={() => edit(user)}>
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
                    void list.run(
                      () => api.send('PATCH', `/users/${encodeURIComponent(user.login)}`, { active: false }),
                      `"${user.login}" deactivated.`,
                    )
                  }
                >
                  Deactivate
                </button>
              )}
              <DeleteButton
                question={`Delete the user "${user.login}"?`}
                onConfirmed={() =>
                  list.run(() => api.send('DELETE', `/users/${encodeURIComponent(user.login)}`), `"${user.login}" deleted.`)
                }
              />
            </td>
          </tr>
        ))}
      </Table>
      {found ? <p>{found.length} found</p> : <ListPager list={list} />}
    </section>
  );
}
