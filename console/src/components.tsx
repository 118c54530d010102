import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Globals, Page } from './api.js';
import type { Message } from './page-state.js';

let nextId = 0;
/** A stable id for a label's `for` and an error's `aria-describedby`. */
export function useId(prefix: string): string {
  const [id] = useState(() => `${prefix}-${++nextId}`);
  return id;
}

/** A labelled form field with the API's error about it shown right beside it. */
export function Field(props: {
  label: string;
  name: string;
  error?: string;
  hint?: string;
  children: (id: string, describedBy?: string) => ComponentChildren;
}) {
  const id = useId(props.name);
  const errorId = `${id}-error`;
  return (
    <div class={props.error ? 'field has-error' : 'field'} data-field={props.name}>
      <label for={id}>{props.label}</label>
      {props.children(id, props.error ? errorId : undefined)}
      {props.hint && <small class="hint">{props.hint}</small>}
      <FieldError id={errorId} error={props.error} />
    </div>
  );
}

/** The API's error about a field, right beside it (announced as it appears). */
function FieldError(props: { id: string; error: string | undefined }) {
  return props.error ? (
    <p class="field-error" id={props.id} role="alert">
      {props.error}
    </p>
  ) : null;
}

/** A group of inputs that is one field of the API's (roles, globals), with its error beside it. */
function FieldSet(props: { legend: string; name: string; error?: string; children: ComponentChildren }) {
  const errorId = useId(`${props.name}-error`);
  return (
    <fieldset
      class={props.error ? 'field has-error' : 'field'}
      data-field={props.name}
      aria-describedby={props.error ? errorId : undefined}
    >
      <legend>{props.legend}</legend>
      {props.children}
      <FieldError id={errorId} error={props.error} />
    </fieldset>
  );
}

export function TextField(props: {
  label: string;
  name: string;
  value: string;
  onInput: (value: string) => void;
  error?: string;
  /** `current-password` and `new-password`: a password field that a password manager fills in (or suggests). */
  type?: 'text' | 'password' | 'email' | 'search' | 'datetime-local' | 'number' | 'current-password' | 'new-password';
  hint?: string;
  required?: boolean;
  autocomplete?: string;
  disabled?: boolean;
}) {
  const password = props.type === 'current-password' || props.type === 'new-password';
  const inputType: string = password ? 'password' : (props.type ?? 'text');
  return (
    <Field label={props.label} name={props.name} error={props.error} hint={props.hint}>
      {(id, describedBy) => (
        <input
          id={id}
          name={props.name}
          // preact's types tie some attributes to each input type; every one used here takes a plain text value.
          type={inputType as 'text'}
          value={props.value}
          required={props.required}
          disabled={props.disabled}
          autocomplete={props.autocomplete ?? (password ? props.type : 'off')}
          aria-invalid={props.error ? 'true' : undefined}
          aria-describedby={describedBy}
          onInput={(event) => props.onInput(event.currentTarget.value)}
        />
      )}
    </Field>
  );
}

/** A labelled choice among `options`, with the API's error about it beside it. */
export function SelectField(props: {
  label: string;
  name: string;
  value: string;
  options: readonly string[];
  onChange: (value: string) => void;
  error?: string;
}) {
  return (
    <Field label={props.label} name={props.name} error={props.error}>
      {(id, describedBy) => (
        <select
          id={id}
          name={props.name}
          value={props.value}
          aria-describedby={describedBy}
          onChange={(e) => props.onChange(e.currentTarget.value)}
        >
          {props.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A page's heading, with the button that opens its form for a new item. */
export function PageHead(props: { id: string; title: string; newLabel: string; onNew: () => void }) {
  return (
    <div class="page-head">
      <h1 id={props.id}>{props.title}</h1>
      <button type="button" onClick={props.onNew}>
        {props.newLabel}
      </button>
    </div>
  );
}

/** A checkbox per role the project defines. */
export function RolePicker(props: { roles: string[]; value: string[]; onChange: (roles: string[]) => void; error?: string }) {
  return (
    <FieldSet legend="Roles" name="roles" error={props.error}>
      {props.roles.length === 0 && <p class="hint">No roles defined.</p>}
      {props.roles.map((role) => (
        <label class="check" key={role}>
          <input
            type="checkbox"
            name="roles"
            value={role}
            checked={props.value.includes(role)}
            onChange={(event) =>
              props.onChange(event.currentTarget.checked ? [...props.value, role] : props.value.filter((r) => r !== role))
            }
          />
          {role}
        </label>
      ))}
    </FieldSet>
  );
}

export interface GlobalRow {
  name: string;
  value: string;
}

export function globalsToRows(globals: Globals): GlobalRow[] {
  return Object.entries(globals).map(([name, value]) => ({ name, value: JSON.stringify(value) }));
}

/** Rows to globals: a value that reads as JSON (a number, true, false, null, "text") is taken as such, anything else as text. */
export function rowsToGlobals(rows: GlobalRow[]): Globals {
  const globals: Globals = {};
  for (const row of rows) {
    if (row.name.trim() === '') continue;
    let value: Globals[string] = row.value;
    try {
      const parsed: unknown = JSON.parse(row.value);
      if (parsed === null || ['string', 'number', 'boolean'].includes(typeof parsed)) value = parsed as Globals[string];
    } catch {
      // plain text
    }
    globals[row.name.trim()] = value;
  }
  return globals;
}

/** Global values as name/value rows. */
export function GlobalsEditor(props: { rows: GlobalRow[]; onChange: (rows: GlobalRow[]) => void; error?: string }) {
  const set = (index: number, change: Partial<GlobalRow>) =>
    props.onChange(props.rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <FieldSet legend="Globals" name="globals" error={props.error}>
      {props.rows.map((row, index) => (
        <div class="global-row" key={index}>
          <input
            aria-label={`Global ${index + 1} name`}
            placeholder="name"
            value={row.name}
            onInput={(e) => set(index, { name: e.currentTarget.value })}
          />
          <input
            aria-label={`Global ${index + 1} value`}
            placeholder="value"
            value={row.value}
            onInput={(e) => set(index, { value: e.currentTarget.value })}
          />
          <button type="button" class="link" onClick={() => props.onChange(props.rows.filter((_, i) => i !== index))}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" class="secondary" onClick={() => props.onChange([...props.rows, { name: '', value: '' }])}>
        Add global
      </button>
    </FieldSet>
  );
}

/** The roles and globals a user or a token carries, each with the API's error beside it. */
export function AccessFields(props: {
  roles: string[];
  value: { roles: string[]; globals: GlobalRow[] };
  onChange: (part: { roles?: string[]; globals?: GlobalRow[] }) => void;
  errors: Record<string, string>;
}) {
  return (
    <>
      <RolePicker
        roles={props.roles}
        value={props.value.roles}
        onChange={(roles) => props.onChange({ roles })}
        error={props.errors.roles}
      />
      <GlobalsEditor rows={props.value.globals} onChange={(globals) => props.onChange({ globals })} error={props.errors.globals} />
    </>
  );
}

/**
 * Previous and next through a list: one with a total (the admin API's, or the data API's `@count`), or one that only
 * knows whether more follow.
 */
export function Pager(props: {
  offset: number;
  pagesize: number;
  total?: number;
  /** The total is a lower bound (the count stopped there). */
  atLeast?: boolean;
  /** How many rows this page shows (the data API's lists, whose total may be unknown). */
  shown?: number;
  hasMore?: boolean;
  onOffset: (offset: number) => void;
}) {
  const { offset, pagesize, total, shown } = props;
  const end = shown !== undefined ? offset + shown : total === undefined ? offset + pagesize : Math.min(total, offset + pagesize);
  const more = props.hasMore ?? (total !== undefined && end < total);
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={offset === 0} onClick={() => props.onOffset(Math.max(0, offset - pagesize))}>
        Previous
      </button>
      <span>
        {total === 0 ? 'none' : shown === 0 ? 'no rows' : `${offset + 1}–${end}`}
        {total !== undefined && total > 0 && ` of ${props.atLeast ? 'at least ' : ''}${total}`}
      </span>
      <button type="button" disabled={!more} onClick={() => props.onOffset(offset + pagesize)}>
        Next
      </button>
    </nav>
  );
}

/** The pager of an admin API list (usePagedList), once its first page is in. */
export function ListPager(props: {
  list: { page?: Page<unknown>; offset: number; pageSize: number; setOffset: (offset: number) => void };
}) {
  const { page, offset, pageSize, setOffset } = props.list;
  return page ? <Pager offset={offset} pagesize={pageSize} total={page.total} onOffset={setOffset} /> : null;
}

/** A table of records: its column headings, then the rows. */
export function Table(props: { columns: readonly string[]; class?: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap">
      <table class={props.class}>
        <thead>
          <tr>
            {props.columns.map((column, index) => (
              <th scope="col" key={index}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}

/** A form the console checks nothing of itself (the API says what is wrong, beside each field); `onSubmit` runs in place of a page load. */
export function Form(props: { label?: string; class?: string; onSubmit: () => unknown; children: ComponentChildren }) {
  return (
    <form
      noValidate
      class={props.class}
      aria-label={props.label}
      onSubmit={(event) => {
        event.preventDefault();
        void props.onSubmit();
      }}
    >
      {props.children}
    </form>
  );
}

/** A form's buttons: submit, whatever the form adds, and cancel. */
export function FormActions(props: { submit: string; cancel?: string; onCancel: () => void; children?: ComponentChildren }) {
  return (
    <div class="actions">
      <button type="submit">{props.submit}</button>
      {props.children}
      <button type="button" class="secondary" onClick={props.onCancel}>
        {props.cancel ?? 'Cancel'}
      </button>
    </div>
  );
}

/** Sets a new password for another account (a user, an admin account): `onSubmit` sends it, then the form closes. */
export function ResetPasswordForm(props: {
  target: string;
  note?: ComponentChildren;
  onSubmit: (password: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const [password, setPassword] = useState('');
  return (
    <Form
      class="panel"
      label={`Reset password of ${props.target}`}
      onSubmit={async () => {
        await props.onSubmit(password);
        props.onClose();
      }}
    >
      <h2>Reset the password of {props.target}</h2>
      {props.note}
      <TextField label="New password" name="newPassword" type="new-password" value={password} onInput={setPassword} required />
      <FormActions submit="Set password" onCancel={props.onClose} />
    </Form>
  );
}

/** A button that asks `question` first and does `onConfirmed` only when the operator agrees (a delete). */
export function ConfirmButton(props: { question: string; class: string; onConfirmed: () => unknown; children: ComponentChildren }) {
  return (
    <button
      type="button"
      class={props.class}
      onClick={() => {
        if (confirm(props.question)) void props.onConfirmed();
      }}
    >
      {props.children}
    </button>
  );
}

/** A list row's Delete: asks `question` first. */
export function DeleteButton(props: { question: string; onConfirmed: () => unknown }) {
  return (
    <ConfirmButton class="link danger" question={props.question} onConfirmed={props.onConfirmed}>
      Delete
    </ConfirmButton>
  );
}

export function Notice(props: { kind: 'error' | 'ok' | 'info'; children: ComponentChildren }) {
  return (
    <div class={`notice ${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </div>
  );
}

/** The page's message, when it has one. */
export function MessageLine(props: { message: Message | undefined; children?: ComponentChildren }) {
  return props.message ? (
    <Notice kind={props.message.kind}>
      {props.message.text}
      {props.children}
    </Notice>
  ) : null;
}

export function formatTime(iso: string | null): string {
  return iso === null ? '—' : iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

/** Copies text, telling the operator it did. */
export function CopyButton(props: { text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={() => {
        void navigator.clipboard.writeText(props.text).then(
          () => setCopied(true),
          () => setCopied(false),
        );
      }}
    >
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}
