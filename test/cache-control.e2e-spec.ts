import { adminHeader, authHeader, loginAs } from './support/auth.js';
import { describeEachTargetOnBothAdapters, suiteApp, TEST_ADMIN_PASSWORD, TEST_ADMIN_USER, type TestApp } from './support/test-app.js';

describeEachTargetOnBothAdapters('Cache-Control: no-store on every answer', (target) => {
  let t: TestApp;
  let key: string;

  suiteApp(target, {}, async (app) => {
    t = app;
    key = await loginAs(t, 'demo', 'Password1');
  });

  it('on the login answer, which carries the key, and on a re-validation', async () => {
    const login = await t.http().post(`${t.base}/@authentication`).send({ username: 'demo', password: 'Password1' }).expect(200);
    expect(login.body.apikey).toEqual(expect.any(String));
    expect(login.headers['cache-control']).toBe('no-store');
    const revalidated = await t.http().post(`${t.base}/@authentication`).send({ apikey: login.body.apikey }).expect(200);
    expect(revalidated.headers['cache-control']).toBe('no-store');
  });

  it('on reads, the key read with its ETag, writes and the meta endpoints', async () => {
    const answers = [
      await t
        .http()
        .get(`${t.base}/customer`)
        .set(...authHeader(key))
        .expect(200),
      await t
        .http()
        .get(`${t.base}/customer/Acme%20Anchors`)
        .set(...authHeader(key))
        .expect(200),
      await t
        .http()
        .post(`${t.base}/customer`)
        .set(...authHeader(key))
        .send({ name: 'No Store Co', credit_limit: 10 })
        .expect(201),
      await t
        .http()
        .get(`${t.base}/@tables`)
        .set(...authHeader(key))
        .expect(200),
      await t
        .http()
        .get(`${t.base}/@serverinfo`)
        .set(...authHeader(key))
        .expect(200),
      await t.http().get(`${t.base}/@heartbeat`).expect(200),
    ];
    expect(answers[1]!.headers.etag).toMatch(/^"R:[0-9a-f]{16}"$/);
    for (const res of answers) expect(res.headers['cache-control']).toBe('no-store');
  });

  it('on error answers: no token, a bad token, a forbidden write, an unknown path, a bad body', async () => {
    const readonly = await loginAs(t, 'readonly', 'Password1');
    const answers = [
      await t.http().get(`${t.base}/customer`).expect(401),
      await t
        .http()
        .get(`${t.base}/customer`)
        .set(...authHeader('not-a-key-at-all-really'))
        .expect(401),
      await t
        .http()
        .post(`${t.base}/customer`)
        .set(...authHeader(readonly))
        .send({ name: 'X' })
        .expect(403),
      await t.http().get('/nothing-here').expect(404),
      await t
        .http()
        .post(`${t.base}/customer`)
        .set(...authHeader(key))
        .set('Content-Type', 'application/json')
        .send('{"a": ')
        .expect(400),
      await t.http().post(`${t.base}/@authentication`).send({ username: 'demo', password: 'wrong' }).expect(401),
    ];
    for (const res of answers) expect(res.headers['cache-control']).toBe('no-store');
  });

  it('on the admin API: its login answer, a listing and its errors', async () => {
    const login = await t
      .http()
      .post('/admin/v1/@authentication')
      .send({ username: TEST_ADMIN_USER, password: TEST_ADMIN_PASSWORD })
      .expect(200);
    const answers = [
      login,
      await t
        .http()
        .get('/admin/v1/users')
        .set(...(await adminHeader(t)))
        .expect(200),
      await t
        .http()
        .get('/admin/v1/tokens')
        .set(...(await adminHeader(t)))
        .expect(200),
      await t.http().get('/admin/v1/users').expect(401),
    ];
    for (const res of answers) expect(res.headers['cache-control']).toBe('no-store');
  });
});
