import { useState } from 'preact/hooks';
import { ApiFailure } from '../api.js';
import { Form, MessageLine, TextField } from '../components.js';
import { fieldsOf, useFieldErrors, useMessage } from '../page-state.js';
import type { PageProps } from '../shell.js';

const NO_PASSWORDS = { password: '', newPassword: '' };

/** The signed-in admin account changes its own password (PUT /admin/v1/@me/password). */
export function AccountPage({ api, onUnauthorized }: PageProps) {
  const [draft, setDraft] = useState(NO_PASSWORDS);
  const { message, setMessage } = useMessage(onUnauthorized);
  const { errors, setErrors, submit } = useFieldErrors(['newPassword'], setMessage, onUnauthorized);
  const field = fieldsOf(draft, (part) => setDraft({ ...draft, ...part }), errors);
  const change = () =>
    submit(
      async () => {
        try {
          await api.send('PUT', '/@me/password', draft);
        } catch (failure) {
          // A wrong current password is refused like a sign-in (401 / 4013): shown beside its field, the session goes on.
          if (!(failure instanceof ApiFailure && failure.errorCode === 4013)) throw failure;
          setErrors({ password: failure.message });
          return;
        }
        setDraft(NO_PASSWORDS);
        setMessage({ kind: 'ok', text: 'Password changed. Your other sessions have ended; this one goes on.' });
      },
      (failure, parts) => {
        // Messages about "the password" here concern the new one (the policy); the current one is checked like a login.
        if (!/^The password/.test(failure.message)) return;
        parts.byField.newPassword = failure.message;
        parts.rest.length = 0;
      },
    );
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">My account</h1>
      <MessageLine message={message} />
      <Form class="panel" label="Change my password" onSubmit={change}>
        <h2>Change my password</h2>
        <TextField label="Current password" type="current-password" {...field('password')} required />
        <TextField label="New password" type="new-password" {...field('newPassword')} required />
        <button type="submit">Change password</button>
      </Form>
    </section>
  );
}
