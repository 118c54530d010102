import { useState } from 'preact/hooks';
import { ApiFailure } from '../api.js';
import { Notice, TextField } from '../components.js';
import type { PageProps } from '../shell.js';

/** The signed-in admin account changes its own password (PUT /admin/v1/@me/password). */
export function AccountPage({ api, onUnauthorized }: PageProps) {
  const [password, setPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string }>();
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">My account</h1>
      {message && <Notice kind={message.kind}>{message.text}</Notice>}
      <form
        noValidate
        class="panel"
        aria-label="Change my password"
        onSubmit={(event) => {
          event.preventDefault();
          setErrors({});
          setMessage(undefined);
          api.send('PUT', '/@me/password', { password, newPassword }).then(
            () => {
              setPassword('');
              setNewPassword('');
              setMessage({ kind: 'ok', text: 'Password changed. Your other sessions have ended; this one goes on.' });
            },
            (failure: unknown) => {
              if (failure instanceof ApiFailure && failure.errorCode === 4013) {
                setErrors({ password: failure.message });
                return;
              }
              onUnauthorized(failure);
              if (failure instanceof ApiFailure) {
                // Messages about "the password" here concern the new one (the policy); the current one is checked like a login.
                const { byField, rest } = failure.fieldErrors(['newPassword']);
                if (/^The password/.test(failure.message)) byField.newPassword = failure.message;
                else if (rest.length > 0) setMessage({ kind: 'error', text: rest.join('; ') });
                setErrors(byField);
              } else setMessage({ kind: 'error', text: String(failure) });
            },
          );
        }}
      >
        <h2>Change my password</h2>
        <TextField
          label="Current password"
          name="password"
          type="password"
          autocomplete="current-password"
          value={password}
          onInput={setPassword}
          error={errors.password}
          required
        />
        <TextField
          label="New password"
          name="newPassword"
          type="password"
          autocomplete="new-password"
          value={newPassword}
          onInput={setNewPassword}
          error={errors.newPassword}
          required
        />
        <button type="submit">Change password</button>
      </form>
    </section>
  );
}
