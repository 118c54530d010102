import { useState } from 'preact/hooks';
import type { AdminAccount } from '../api.js';
import {
  DeleteButton,
  Form,
  FormActions,
  formatTime,
  ListPager,
  MessageLine,
  PageHead,
  ResetPasswordForm,
  SelectField,
  Table,
  TextField,
} from '../components.js';
import { fieldsOf, useFieldErrors, useMessage, usePagedList } from '../page-state.js';
import type { PageProps } from '../shell.js';

const PAGE_SIZE = 20;
const ADMIN_FIELDS = ['username', 'password', 'role'];
/** The admin API's roles: `admin` does everything, `auditor` only reads (and changes its own password). */
const ADMIN_ROLES = ['admin', 'auditor'] as const;

interface Draft {
  username: string;
  password: string;
  role: string;
}

const EMPTY: Draft = { username: '', password: '', role: 'auditor' };

/**
 * The admin API's own accounts (`/admin/v1/admins`), for admins only (the console lists this page for the role
 * `admin`): create one, change its role, reset its password, delete it. The API keeps one `admin` at least: demoting or
 * deleting the last is refused (409 / 4094), and the page shows why.
 */
export function AdminsPage({ api, onUnauthorized, signed, onAccountChanged }: PageProps) {
  const messages = useMessage(onUnauthorized);
  const { message, setMessage } = messages;
  const list = usePagedList<AdminAccount>(api, '/admins', PAGE_SIZE, messages);
  const [draft, setDraft] = useState<Draft>();
  const { errors, setErrors, submit } = useFieldErrors(ADMIN_FIELDS, setMessage, onUnauthorized);
  const [roleFor, setRoleFor] = useState<{ username: string; role: string }>();
  const [resetFor, setResetFor] = useState<string>();

  const create = (draft: Draft) =>
    submit(async () => {
      await api.send('POST', '/admins', draft);
      setMessage({ kind: 'ok', text: `Admin account "${draft.username}" created.` });
      setDraft(undefined);
      list.reload();
    });
  const change = (part: Partial<Draft>) => draft && setDraft({ ...draft, ...part });
  const field = draft && fieldsOf(draft, change, errors);
  const itself = (username: string) => username === signed.username;

  return (
    <section aria-labelledby="admins-title">
      <PageHead
        id="admins-title"
        title="Admin accounts"
        newLabel="New admin account"
        onNew={() => {
          setErrors({});
          setDraft({ ...EMPTY });
        }}
      />
      <p class="hint">
        Accounts of this console and the admin API (not API users): an <strong>admin</strong> may do everything, an <strong>auditor</strong>{' '}
        may only read. There is always one admin at least.
      </p>
      <MessageLine message={message} />
      {draft && field && (
        <Form class="panel" label="New admin account" onSubmit={() => create(draft)}>
          <h2>New admin account</h2>
          <div class="grid">
            <TextField label="User name" {...field('username')} hint="1 to 100 of A-Z a-z 0-9 . _ @ + -" required />
            <TextField label="Password" type="new-password" {...field('password')} required />
            <SelectField
              label="Role"
              name="role"
              value={draft.role}
              options={ADMIN_ROLES}
              onChange={(role) => change({ role })}
              error={errors.role}
            />
          </div>
          <FormActions submit="Create account" onCancel={() => setDraft(undefined)} />
        </Form>
      )}
      {roleFor && (
        <Form
          class="panel"
          label={`Role of ${roleFor.username}`}
          onSubmit={() =>
            list
              .run(
                () => api.send('PATCH', `/admins/${encodeURIComponent(roleFor.username)}`, { role: roleFor.role }),
                `"${roleFor.username}" is now ${roleFor.role === 'admin' ? 'an admin' : 'an auditor'}.`,
              )
              .then(() => {
                if (itself(roleFor.username)) onAccountChanged();
                setRoleFor(undefined);
              })
          }
        >
          <h2>Change the role of {roleFor.username}</h2>
          {itself(roleFor.username) && <p class="hint">This is your own account: as an auditor you could no longer manage accounts.</p>}
          <SelectField
            label="New role"
            name="role"
            value={roleFor.role}
            options={ADMIN_ROLES}
            onChange={(role) => setRoleFor({ ...roleFor, role })}
          />
          <FormActions submit="Change role" onCancel={() => setRoleFor(undefined)} />
        </Form>
      )}
      {resetFor !== undefined && (
        <ResetPasswordForm
          target={resetFor}
          note={itself(resetFor) && <p class="hint">This is your own account: your session ends too, and you sign in again.</p>}
          onSubmit={(password) =>
            list.run(
              () => api.send('PUT', `/admins/${encodeURIComponent(resetFor)}/password`, { password }),
              `Password of "${resetFor}" reset; their sessions have ended.`,
            )
          }
          onClose={() => setResetFor(undefined)}
        />
      )}
      <Table columns={['User name', 'Role', 'Created', 'Actions']}>
        {(list.page?.items ?? []).map((account) => (
          <tr key={account.username} data-admin={account.username}>
            <td>
              {account.username}
              {itself(account.username) && <em> (you)</em>}
            </td>
            <td class="role">{account.role}</td>
            <td>{formatTime(account.created)}</td>
            <td class="row-actions">
              <button type="button" class="link" onClick={() => setRoleFor({ username: account.username, role: account.role })}>
                Change role
              </button>
              <button type="button" class="link" onClick={() => setResetFor(account.username)}>
                Reset password
              </button>
              <DeleteButton
                question={`Delete the admin account "${account.username}"? Its sessions end at once.`}
                onConfirmed={() =>
                  list.run(() => api.send('DELETE', `/admins/${encodeURIComponent(account.username)}`), `"${account.username}" deleted.`)
                }
              />
            </td>
          </tr>
        ))}
      </Table>
      <ListPager list={list} />
    </section>
  );
}
