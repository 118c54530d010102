import { adminHeader, expectKeyOpensApi } from '../support/auth.js';
import { startTestApp, suiteApp, testTargets, type TestApp } from '../support/test-app.js';

const SECRET = 'correct-horse-battery-staple';

// The provider does not touch the database, so the first target (SQLite) is enough for the sample.
const target = testTargets()[0]!;

describe(`sample provider secret-word [${target.name}]`, () => {
  let t: TestApp;
  suiteApp(
    target,
    {
      env: { AUTH_PROVIDER: 'secret-word', AUTH_PROVIDER_CONFIG: JSON.stringify({ secret: SECRET, roles: ['Full access'] }) },
    },
    (app) => {
      t = app;
    },
  );
  const login = (body: object) => t.http().post(`${t.base}/@authentication`).send(body);

  it('logs in with the secret word; the token opens @serverinfo and the customer resource', async () => {
    const res = await login({ password: SECRET }).expect(200);
    await expectKeyOpensApi(t, res.body.apikey);
  });

  it('names the token after the username when one is sent, else "guest"', async () => {
    await login({ password: SECRET }).expect(200);
    await login({ username: 'ada', password: SECRET }).expect(200);
    const tokens = await t
      .http()
      .get('/admin/v1/tokens?pagesize=1000')
      .set(...(await adminHeader(t)))
      .expect(200);
    const labels = tokens.body.items.map((x: { label: string; roles: string[] }) => [x.label, x.roles]);
    expect(labels).toContainEqual(['Temp key for guest', ['Full access']]);
    expect(labels).toContainEqual(['Temp key for ada', ['Full access']]);
  });

  it.each([
    ['a wrong word', { password: 'incorrect-horse' }],
    ['the word with a different case', { password: SECRET.toUpperCase() }],
    ['a prefix of the word', { password: SECRET.slice(0, 8) }],
    ['an empty word', { password: '' }],
    ['no word at all', { username: 'ada' }],
    ["a built-in user's credentials", { username: 'demo', password: 'Password1' }],
  ])('refuses %s with 401 / 4013', async (_what, body) => {
    const res = await login(body).expect(401);
    expect(res.body).toEqual({ statusCode: 401, errorCode: 4013, errorMessage: 'Login failed: wrong secret word.' });
  });

  it('describes its login form at @login_info, and its settings to operators without the secret', async () => {
    const info = await t.http().get(`${t.base}/@login_info`).expect(200);
    expect(info.body.fields.map((f: { name: string }) => f.name)).toEqual(['username', 'password']);
    const res = await t
      .http()
      .get('/admin/v1/provider')
      .set(...(await adminHeader(t)))
      .expect(200);
    expect(res.body).toMatchObject({ name: 'secret-word', kind: 'custom', file: 'providers/secret-word.js' });
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
  });

  // Last: it leaves this client address throttled.
  it('throttles guessing: without a username, failures count against the client address, then even the right word gets 429', async () => {
    let status = 0;
    for (let i = 0; i < 15 && status !== 429; i++) status = (await login({ password: `guess-${i}` })).status;
    expect(status).toBe(429);
    const res = await login({ password: SECRET }).expect(429);
    expect(res.headers['retry-after']).toEqual(expect.any(String));
  });

  it('stops the boot when the secret is missing, saying what it needs', async () => {
    await expect(
      startTestApp(target, { env: { AUTH_PROVIDER: 'secret-word', AUTH_PROVIDER_CONFIG: '{"roles": ["Full access"]}' } }),
    ).rejects.toThrow(
      /providers\/secret-word\.js cannot be used:\n {2}- configure\(config\) refused the settings: secret-word needs "secret": a word of at least 8 characters/,
    );
  });
});
