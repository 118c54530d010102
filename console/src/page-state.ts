import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, type AdminApi, type Page, type Role } from './api.js';

/** The line a page shows above its content: what an action did, or why it failed. */
export interface Message {
  kind: 'ok' | 'error' | 'info';
  text: string;
}

/** A failure's text: the API's message, or what was thrown. */
export function failureText(failure: unknown): string {
  return failure instanceof Error ? failure.message : String(failure);
}

/**
 * A page's message, and `fail`: what to do with a failed call (a 401 ends the session through `onUnauthorized`, anything
 * else is shown as an error).
 */
export function useMessage<M extends Message = Message>(onUnauthorized: (failure: unknown) => void) {
  const [message, setMessage] = useState<M>();
  const fail = (failure: unknown) => {
    onUnauthorized(failure);
    setMessage({ kind: 'error', text: failureText(failure) } as M);
  };
  return { message, setMessage, fail };
}

/** What `load` answers, read once and again whenever one of `deps` changes; its failure goes to `fail`. */
export function useLoad<T>(load: () => Promise<T>, fail: (failure: unknown) => void, deps: unknown[] = []): T | undefined {
  const [value, setValue] = useState<T>();
  useEffect(() => {
    load().then(setValue, fail);
  }, deps);
  return value;
}

/** The names of the project's roles (for a role picker). */
export function useRoleNames(api: AdminApi, fail: (failure: unknown) => void): string[] {
  return useLoad(() => api.get<Role[]>('/roles').then((roles) => roles.map((role) => role.name)), fail) ?? [];
}

/**
 * One page of an admin API list (`/users`, `/tokens`, `/audit`) at a time, and `run`: an action on its items that says
 * `done` when it worked and reads the page again.
 */
export function usePagedList<T>(
  api: AdminApi,
  path: string,
  pageSize: number,
  messages: { setMessage: (message: Message | undefined) => void; fail: (failure: unknown) => void },
) {
  const [offset, setOffset] = useState(0);
  const [reloads, setReloads] = useState(0);
  const page = useLoad(() => api.get<Page<T>>(`${path}?offset=${offset}&pagesize=${pageSize}`), messages.fail, [offset, reloads]);
  const reload = () => setReloads((count) => count + 1);
  const run = async (action: () => Promise<unknown>, done: string) => {
    messages.setMessage(undefined);
    try {
      await action();
      messages.setMessage({ kind: 'ok', text: done });
      reload();
    } catch (failure) {
      messages.fail(failure);
    }
  };
  return { page, offset, setOffset, pageSize, reloads, reload, run };
}

/**
 * A form's errors by field, and `submit`: runs `send`; when the API refuses, the parts of its message that name one of
 * `fields` go beside that field and the rest to the page's message (`place` may move parts first).
 */
export function useFieldErrors(
  fields: readonly string[],
  setMessage: (message: Message | undefined) => void,
  onUnauthorized: (failure: unknown) => void,
) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = async (
    send: () => Promise<void>,
    place?: (failure: ApiFailure, parts: { byField: Record<string, string>; rest: string[] }) => void,
  ) => {
    setErrors({});
    setMessage(undefined);
    try {
      await send();
    } catch (failure) {
      onUnauthorized(failure);
      if (!(failure instanceof ApiFailure)) {
        setMessage({ kind: 'error', text: failureText(failure) });
        return;
      }
      const parts = failure.fieldErrors(fields);
      place?.(failure, parts);
      setErrors(parts.byField);
      if (parts.rest.length > 0) setMessage({ kind: 'error', text: parts.rest.join('; ') });
    }
  };
  return { errors, setErrors, submit };
}

/** The props that tie a TextField to one text property of a draft and to that property's error. */
export function fieldsOf<D>(draft: D, change: (part: Partial<D>) => void, errors: Record<string, string>) {
  return (name: keyof D & string) => ({
    name,
    value: draft[name] as string,
    onInput: (value: string) => change({ [name]: value } as Partial<D>),
    error: errors[name],
  });
}
