import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Globals } from './api.js';

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
      {props.error && (
        <p class="field-error" id={errorId} role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}

export function TextField(props: {
  label: string;
  name: string;
  value: string;
  onInput: (value: string) => void;
  error?: string;
  type?: 'text' | 'password' | 'email' | 'search' | 'datetime-local' | 'number';
  hint?: string;
  required?: boolean;
  autocomplete?: string;
  disabled?: boolean;
}) {
  const inputType: string = props.type ?? 'text';
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
          autocomplete={props.autocomplete ?? 'off'}
          aria-invalid={props.error ? 'true' : undefined}
          aria-describedby={describedBy}
          onInput={(event) => props.onInput(event.currentTarget.value)}
        />
      )}
    </Field>
  );
}

/** A checkbox per role the project defines. */
export function RolePicker(props: { roles: string[]; value: string[]; onChange: (roles: string[]) => void; error?: string }) {
  const errorId = useId('roles-error');
  return (
    <fieldset class={props.error ? 'field has-error' : 'field'} data-field="roles" aria-describedby={props.error ? errorId : undefined}>
      <legend>Roles</legend>
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
      {props.error && (
        <p class="field-error" id={errorId} role="alert">
          {props.error}
        </p>
      )}
    </fieldset>
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
  const errorId = useId('globals-error');
  const set = (index: number, change: Partial<GlobalRow>) =>
    props.onChange(props.rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <fieldset class={props.error ? 'field has-error' : 'field'} data-field="globals" aria-describedby={props.error ? errorId : undefined}>
      <legend>Globals</legend>
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
      {props.error && (
        <p class="field-error" id={errorId} role="alert">
          {props.error}
        </p>
      )}
    </fieldset>
  );
}

export function Pager(props: { offset: number; pagesize: number; total?: number; hasMore?: boolean; onOffset: (offset: number) => void }) {
  const end = props.total === undefined ? props.offset + props.pagesize : Math.min(props.total, props.offset + props.pagesize);
  const more = props.hasMore ?? (props.total !== undefined && end < props.total);
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={props.offset === 0} onClick={() => props.onOffset(Math.max(0, props.offset - props.pagesize))}>
        Previous
      </button>
      <span>
        {props.total === 0 ? 'none' : `${props.offset + 1}–${end}`}
        {props.total !== undefined && ` of ${props.total}`}
      </span>
      <button type="button" disabled={!more} onClick={() => props.onOffset(props.offset + props.pagesize)}>
        Next
      </button>
    </nav>
  );
}

export function Notice(props: { kind: 'error' | 'ok' | 'info'; children: ComponentChildren }) {
  return (
    <div class={`notice ${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </div>
  );
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
