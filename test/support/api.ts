import type { Test } from 'supertest';
import { authHeader, createManualToken, loginAs, type ManualTokenOptions } from './auth.js';
import { suiteApp, type TestApp, type TestAppOptions, type TestTarget } from './test-app.js';

/** A client of one test app that sends one user's token on every call. */
export interface Api {
  get(path: string): Test;
  /** GET an absolute URL the service handed out (href, next_batch). */
  getUrl(url: string): Test;
  post(path: string, body: unknown): Test;
  put(path: string, body: unknown): Test;
  /** LAC answers PATCH as PUT. */
  patch(path: string, body: unknown): Test;
  delete(path: string): Test;
}

/** Every request names this host, so hrefs are the same whatever port supertest picked. */
export const API_HOST = 'tessera.test';

/** Logs in as a demo user (password `Password1`) and sends that token on every call. */
export async function apiAs(t: TestApp, user: string): Promise<Api> {
  return apiWithKey(t, await loginAs(t, user, 'Password1'));
}

/** A client that sends the given API key on every call. */
export function apiWithKey(t: TestApp, apikey: string): Api {
  const [name, value] = authHeader(apikey);
  const headers: Record<string, string> = { [name]: value };
  const withAuth = (test: Test): Test => {
    test.set('Host', API_HOST);
    for (const [name, value] of Object.entries(headers)) test.set(name, value);
    return test;
  };
  return {
    get: (path) => withAuth(t.http().get(`${t.base}${path}`)),
    getUrl: (url) => {
      const u = new URL(url);
      return withAuth(t.http().get(`${u.pathname}${u.search}`));
    },
    post: (path, body) => withAuth(t.http().post(`${t.base}${path}`).set('Content-Type', 'application/json').send(JSON.stringify(body))),
    put: (path, body) => withAuth(t.http().put(`${t.base}${path}`).set('Content-Type', 'application/json').send(JSON.stringify(body))),
    patch: (path, body) => withAuth(t.http().patch(`${t.base}${path}`).set('Content-Type', 'application/json').send(JSON.stringify(body))),
    delete: (path) => withAuth(t.http().delete(`${t.base}${path}`)),
  };
}

/** A client that sends a fresh manual token of these roles (labelled with their names) on every call. */
export async function apiWithRoles(t: TestApp, roles: string[], globals?: ManualTokenOptions['globals']): Promise<Api> {
  return apiWithKey(t, await createManualToken(t, { roles, globals, label: roles.join('+') }));
}

/**
 * Boots a test app for the enclosing suite (closed after it), logs in as `user`, and hands
 * both to `use` once ready: `suiteAppAs(target, 'demo', (app, client) => { t = app; api = client; })`.
 */
export function suiteAppAs(target: TestTarget, user: string, use: (t: TestApp, api: Api) => void, options: TestAppOptions = {}): void {
  suiteApp(target, options, async (app) => {
    use(app, await apiAs(app, user));
  });
}

/** GET of one object by its path: expects 200 and an array of exactly one object, and returns it. */
export async function oneRow<T = Record<string, unknown>>(api: Api, path: string): Promise<T> {
  const res = await api.get(path).expect(200);
  expect(res.body).toHaveLength(1);
  return res.body[0] as T;
}
