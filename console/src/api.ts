/** Calls to Tessera from the console: the admin API with the admin token, the data API with an API token (never the admin one). */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** An error answer of Tessera's (the envelope), or a network failure (status 0). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: number,
    message: string,
  ) {
    super(message);
  }

  /** The message's parts (validation messages are joined with "; "), each with the form field it concerns, when one does. */
  fieldErrors(fields: readonly string[]): { byField: Record<string, string>; rest: string[] } {
    const byField: Record<string, string> = {};
    const rest: string[] = [];
    for (const part of this.message.split('; ')) {
      const field = fieldOf(part, fields);
      if (field === undefined) rest.push(part);
      else byField[field] = byField[field] ? `${byField[field]}; ${part}` : part;
    }
    return { byField, rest };
  }
}

/**
 * Which field a message names: class-validator's start with the property ("email must be an email"); the admin API's own
 * say "password", "role(s)", "global", "A user … already exists", "A token with this key".
 */
function fieldOf(message: string, fields: readonly string[]): string | undefined {
  const first = /^([A-Za-z]+)[ .]/.exec(message)?.[1];
  if (first !== undefined && fields.includes(first)) return first;
  const hints: Array<[RegExp, string]> = [
    [/password/i, 'password'],
    [/newPassword/i, 'newPassword'],
    [/\brole/i, 'roles'],
    [/global/i, 'globals'],
    [/^A user /, 'login'],
    [/^An admin account "/, 'username'],
    [/token with this key|\bkey\b/i, 'key'],
    [/identifier/i, 'userIdentifier'],
    [/expiration/i, 'expiration'],
    [/label/i, 'label'],
    [/e-?mail/i, 'email'],
    [/lifetime/i, 'keyLifetimeSeconds'],
  ];
  return hints.find(([pattern, field]) => pattern.test(message) && fields.includes(field))?.[1];
}

async function call(method: string, url: string, authorization: string | undefined, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (authorization) headers.Authorization = authorization;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'omit' });
  } catch {
    throw new ApiFailure(0, 0, 'Tessera could not be reached.');
  }
  const text = await response.text();
  const parsed: unknown = text === '' ? undefined : safeParse(text);
  if (!response.ok) {
    const envelope = parsed as { errorCode?: unknown; errorMessage?: unknown } | undefined;
    const message = typeof envelope?.errorMessage === 'string' ? envelope.errorMessage : `HTTP ${response.status}`;
    throw new ApiFailure(response.status, typeof envelope?.errorCode === 'number' ? envelope.errorCode : 0, message);
  }
  return parsed;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The admin API at /admin/v1 with the signed-in account's token. */
export class AdminApi {
  constructor(readonly token: string) {}

  get<T>(path: string): Promise<T> {
    return call('GET', `/admin/v1${path}`, `Bearer ${this.token}`) as Promise<T>;
  }
  send<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
    return call(method, `/admin/v1${path}`, `Bearer ${this.token}`, body) as Promise<T>;
  }
}

export async function adminSignIn(username: string, password: string): Promise<{ apikey: string; role: string }> {
  return (await call('POST', '/admin/v1/@authentication', undefined, { username, password })) as { apikey: string; role: string };
}

/** The data API of one version (`/rest/<account>/<project>/<version>`) with an API token. */
export class DataApi {
  constructor(
    readonly base: string,
    readonly token: string,
  ) {}

  get<T>(path: string): Promise<T> {
    return call('GET', `${this.base}/${path}`, `CALiveAPICreator ${this.token}:1`) as Promise<T>;
  }
  send<T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
    return call(method, `${this.base}/${path}`, `CALiveAPICreator ${this.token}:1`, body) as Promise<T>;
  }
}

export interface Page<T> {
  items: T[];
  offset: number;
  pagesize: number;
  total: number;
}

export type Globals = Record<string, string | number | boolean | null>;

export interface User {
  login: string;
  roles: string[];
  globals: Globals;
  email: string | null;
  keyLifetimeSeconds: number | null;
  active: boolean;
  lastLoginTs: string | null;
  created: string;
}

export interface Token {
  id: number;
  label: string;
  userIdentifier: string | null;
  roles: string[];
  globals: Globals;
  origin: string;
  status: string;
  expiration: string | null;
  created: string;
  lastUsed: string | null;
}

/** An account of the admin API (never its password hash). */
export interface AdminAccount {
  username: string;
  role: string;
  created: string;
}

export interface Role {
  name: string;
  defaultAccess?: string;
  metaAccess?: boolean;
  resources?: Record<string, { access?: string[]; rowFilter?: string; readColumns?: string[]; writeColumns?: string[] }>;
}
