import { TEST_ADMIN_PASSWORD, TEST_ADMIN_USER, type TestApp } from './test-app.js';

/** Logs in at `@authentication` and returns the new token's key; fails the test on any other answer. */
export async function loginAs(t: TestApp, username: string, password: string): Promise<string> {
  const res = await t.http().post(`${t.base}/@authentication`).send({ username, password });
  if (res.status !== 200) throw new Error(`login as ${username} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.apikey as string;
}

/** The header that carries a key, in the form LAC clients send: `.set(...authHeader(key))`. */
export function authHeader(apikey: string): [string, string] {
  return ['Authorization', `CALiveAPICreator ${apikey}:1`];
}

const adminTokens = new WeakMap<TestApp, string>();

/** An admin API token for the test app's first admin (TEST_ADMIN_USER), logged in once per app. */
export async function adminToken(t: TestApp): Promise<string> {
  const cached = adminTokens.get(t);
  if (cached) return cached;
  const res = await t.http().post('/admin/v1/@authentication').send({ username: TEST_ADMIN_USER, password: TEST_ADMIN_PASSWORD });
  if (res.status !== 200) throw new Error(`admin login answered ${res.status}: ${JSON.stringify(res.body)}`);
  adminTokens.set(t, res.body.apikey);
  return res.body.apikey as string;
}

/** The header that carries the admin token: `.set(...(await adminHeader(t)))`. */
export async function adminHeader(t: TestApp): Promise<[string, string]> {
  return ['Authorization', `Bearer ${await adminToken(t)}`];
}

export interface NewUserOptions {
  login: string;
  password: string;
  roles?: string[];
  globals?: Record<string, string | number | boolean | null>;
  email?: string;
  keyLifetimeSeconds?: number;
}

/** Creates a built-in user through the admin API. */
export async function createUser(t: TestApp, user: NewUserOptions): Promise<void> {
  const res = await t
    .http()
    .post('/admin/v1/users')
    .set(...(await adminHeader(t)))
    .send({ roles: [], ...user });
  if (res.status !== 201) throw new Error(`user creation answered ${res.status}: ${JSON.stringify(res.body)}`);
}

export interface ManualTokenOptions {
  roles: string[];
  globals?: Record<string, string | number | boolean | null>;
  label?: string;
  key?: string;
  userIdentifier?: string;
  /** ISO 8601; absent: never expires. */
  expiration?: string;
}

/** Creates a hand-made API token through the admin API and returns its key. */
export async function createManualToken(t: TestApp, options: ManualTokenOptions): Promise<string> {
  const res = await t
    .http()
    .post('/admin/v1/tokens')
    .set(...(await adminHeader(t)))
    .send({ label: 'test token', ...options });
  if (res.status !== 201) throw new Error(`token creation answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.apikey as string;
}

/** The key opens the API: `@serverinfo` and a resource read (the demo's customers) answer 200. */
export async function expectKeyOpensApi(t: TestApp, apikey: string): Promise<void> {
  await t
    .http()
    .get(`${t.base}/@serverinfo`)
    .set(...authHeader(apikey))
    .expect(200);
  const customers = await t
    .http()
    .get(`${t.base}/customer`)
    .set(...authHeader(apikey))
    .expect(200);
  expect(customers.body.length).toBeGreaterThan(0);
}
