import type { Response } from 'supertest';
import { shelfSlotsProject } from './fixtures/shelf-slots/shelf-slots-project.js';
import { apiAs, type Api } from './support/api.js';
import { adminHeader } from './support/auth.js';
import { capturedLog } from './support/captured-log.js';
import { describeEachTargetOnBothAdapters, suiteApp, TEST_ADMIN_PASSWORD, TEST_ADMIN_USER, type TestApp } from './support/test-app.js';

const NUL = '\u0000';

/** 400 / 4000 in the envelope, saying why. */
function expectRefused(res: Response): void {
  expect({ status: res.status, body: res.body }).toEqual({
    status: 400,
    body: { statusCode: 400, errorCode: 4000, errorMessage: expect.stringMatching(/NUL/) },
  });
}

/**
 * PostgreSQL cannot store NUL and its driver failed the whole statement: 500 and a stack trace
 * in the log for a login name, a key, a value or an admin field. Every way in is refused with
 * 400 / 4000 on every database, before anything reaches it.
 */
describeEachTargetOnBothAdapters('NUL characters', (target) => {
  let t: TestApp;
  let api: Api;
  const log = capturedLog();

  suiteApp(target, { project: shelfSlotsProject, logger: log.logger }, async (app) => {
    t = app;
    api = await apiAs(t, 'demo');
    await api.post('/shelf_slot', { warehouse: 'main', aisle: 'a1', slot: 3 }).expect(201);
  });

  /** Nothing was logged as an error: no stack trace, no driver message. */
  afterEach(() => {
    const errors = log.records().filter((entry) => Number(entry.level) >= 50 || 'err' in entry || 'stack' in entry);
    log.clear();
    expect(errors).toEqual([]);
  });

  const authenticate = (body: unknown, query = ''): Promise<Response> =>
    t.http().post(`${t.base}/@authentication${query}`).set('Content-Type', 'application/json').send(JSON.stringify(body));

  it.each([
    ['a user name', { username: `demo${NUL}`, password: 'Password1' }],
    ['a user name with the NUL inside', { username: `de${NUL}mo`, password: 'Password1' }],
    ['a password', { username: 'demo', password: `Password1${NUL}` }],
    ['an apikey to re-validate', { apikey: `abc${NUL}def` }],
    ['an apikey to disable', { apikey: `abc${NUL}`, disable: true }],
    ['a field name', { username: 'demo', password: 'Password1', [`x${NUL}`]: 1 }],
  ])('@authentication refuses %s', async (_label, body) => {
    expectRefused(await authenticate(body));
  });

  it('@authentication refuses a new password with a NUL, and the old password still works', async () => {
    expectRefused(
      await authenticate({ username: 'demo', password: 'Password1', new_password: `Better${NUL}Password1` }, '?enablePasswordChange!'),
    );
    expect((await authenticate({ username: 'demo', password: 'Password1' })).status).toBe(200);
  });

  it('the admin login refuses a NUL in the user name and in the password', async () => {
    for (const body of [
      { username: `${TEST_ADMIN_USER}${NUL}`, password: TEST_ADMIN_PASSWORD },
      { username: TEST_ADMIN_USER, password: NUL },
    ]) {
      expectRefused(await t.http().post('/admin/v1/@authentication').set('Content-Type', 'application/json').send(JSON.stringify(body)));
    }
  });

  it.each([
    ['a login', { login: `nul${NUL}user`, password: 'Password1' }],
    ['an email', { login: 'nul-email', password: 'Password1', email: `a${NUL}@example.com` }],
    ['a role name', { login: 'nul-role', password: 'Password1', roles: [`Full access${NUL}`] }],
    ['a global name', { login: 'nul-global-name', password: 'Password1', globals: { [`employee${NUL}id`]: 1 } }],
    ['a global value', { login: 'nul-global-value', password: 'Password1', globals: { employee_id: `1${NUL}` } }],
  ])('admin user creation refuses %s, and creates no user', async (_label, body) => {
    const admin = await adminHeader(t);
    expectRefused(
      await t
        .http()
        .post('/admin/v1/users')
        .set(...admin)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(body)),
    );
    const users = await t
      .http()
      .get('/admin/v1/users?pagesize=100')
      .set(...admin)
      .expect(200);
    expect((users.body.items as Array<{ login: string }>).map((u) => u.login)).not.toContain(body.login);
  });

  it('admin user changes, password resets, tokens and paths refuse a NUL', async () => {
    const admin = await adminHeader(t);
    const send = (method: 'patch' | 'put' | 'post', path: string, body: unknown): Promise<Response> =>
      t
        .http()
        [method](path)
        .set(...admin)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(body));
    expectRefused(await send('patch', '/admin/v1/users/demo', { email: `demo${NUL}@example.com` }));
    expectRefused(await send('put', '/admin/v1/users/demo/password', { password: `New-Passw0rd${NUL}` }));
    expectRefused(await send('post', '/admin/v1/tokens', { label: `export${NUL}`, roles: ['Read only'] }));
    expectRefused(await send('post', '/admin/v1/tokens', { label: 'export', userIdentifier: `robot${NUL}`, roles: ['Read only'] }));
    expectRefused(
      await t
        .http()
        .get('/admin/v1/users/de%00mo')
        .set(...admin),
    );
    expectRefused(
      await t
        .http()
        .delete('/admin/v1/users/demo%00')
        .set(...admin),
    );
    expect((await authenticate({ username: 'demo', password: 'Password1' })).status).toBe(200);
  });

  it.each([
    ['a key that is only NUL', '/customer/%00'],
    ['a NUL inside a key', '/customer/Alpha%00and%20Sons'],
    ['a NUL in the first part of a composite key', '/shelf_slot/ma%00in~a1~3'],
    ['a NUL in the last part of a composite key', '/shelf_slot/main~a1~%00'],
    ['a NUL in the resource name', '/cust%00omer'],
  ])('GET refuses %s', async (_label, path) => {
    expectRefused(await api.get(path));
  });

  it('PUT and DELETE refuse a NUL in the key', async () => {
    expectRefused(await api.put('/customer/%00', { '@metadata': { checksum: 'override' }, credit_limit: 1 }));
    expectRefused(await api.put('/shelf_slot/main~a%00~3', { '@metadata': { checksum: 'override' }, label: 'x' }));
    expectRefused(await api.delete('/customer/Alpha%20and%20Sons%00?checksum=override'));
  });

  it.each([
    ['a key column', '/customer', { name: `Nul${NUL}Co`, credit_limit: 1 }],
    ['a string column', '/purchaseorder', { customer_name: 'Alpha and Sons', notes: `one${NUL}two` }],
    ['a foreign key column', '/purchaseorder', { customer_name: `Alpha and Sons${NUL}` }],
    ['a composite key part', '/shelf_slot', { warehouse: 'main', aisle: `a${NUL}`, slot: 4 }],
    ['a property name', '/customer', { [`na${NUL}me`]: 'Nul Name Co', credit_limit: 1 }],
    [
      'the second object of an array',
      '/customer',
      [
        { name: 'Fine Co', credit_limit: 1 },
        { name: `Nul${NUL}`, credit_limit: 1 },
      ],
    ],
    ['a key inside @metadata', '/customer', { name: 'Meta Co', credit_limit: 1, '@metadata': { [`x${NUL}`]: 1 } }],
  ])('POST refuses a NUL in %s, and inserts nothing', async (_label, path, body) => {
    expectRefused(await api.post(path, body));
    const fine = await api
      .get(`/customer?filter=${encodeURIComponent("name = 'Fine Co' or name = 'Meta Co' or name = 'Nul Name Co'")}`)
      .expect(200);
    expect(fine.body).toEqual([]);
  });

  it('PUT refuses a NUL in a value, in @metadata and in an href key, and changes nothing', async () => {
    const [order] = (await api.get('/purchaseorder?pagesize=1').expect(200)).body as Array<{
      order_number: number;
      notes: string | null;
      '@metadata': { checksum: string };
    }>;
    expectRefused(await api.put(`/purchaseorder/${order!.order_number}`, { '@metadata': { checksum: 'override' }, notes: `a${NUL}b` }));
    expectRefused(await api.put(`/purchaseorder/${order!.order_number}`, { '@metadata': { checksum: `override${NUL}` }, notes: 'fine' }));
    expectRefused(
      await api.put('/customer', [
        { '@metadata': { href: `http://x${t.base}/customer/Alpha%00and%20Sons`, checksum: 'override' }, credit_limit: 2 },
      ]),
    );
    expectRefused(
      await api.put('/shelf_slot', [{ warehouse: 'main', aisle: 'a1', slot: 3, label: `x${NUL}`, '@metadata': { checksum: 'override' } }]),
    );
    const again = (await api.get(`/purchaseorder/${order!.order_number}`).expect(200)).body[0];
    expect(again['@metadata'].checksum).toBe(order!['@metadata'].checksum);
  });

  it.each([
    ['a filter literal', `filter=${encodeURIComponent(`name = 'Alpha${NUL}'`)}`],
    ['a filter column name', `filter=${encodeURIComponent(`na${NUL}me = 'x'`)}`],
    ['a sysfilter literal', `sysfilter=${encodeURIComponent(`equal(name:'${NUL}')`)}`],
    ['an order', `order=${encodeURIComponent(`name${NUL}`)}`],
    ['a sysorder', `sysorder=${encodeURIComponent(`(name${NUL}:asc)`)}`],
    ['a page size', 'pagesize=%00'],
    ['a query parameter name', 'fil%00ter=x'],
    ['a lone query parameter name', '%00'],
    ['an auth key in the URL', 'auth=%00'],
  ])('a collection read refuses a NUL in %s', async (_label, query) => {
    expectRefused(await api.get(`/customer?${query}`));
  });

  it('still answers requests without NUL as before, %2500 (a percent sign and two zeros) included', async () => {
    const res = await api.get(`/customer?filter=${encodeURIComponent("name = '%00'")}`).expect(200);
    expect(res.body).toEqual([]);
    await api.post('/customer', { name: '100%00 Co', credit_limit: 1 }).expect(201);
    const row = (await api.get(`/customer/${encodeURIComponent('100%00 Co')}`).expect(200)).body;
    expect(row).toEqual([expect.objectContaining({ name: '100%00 Co' })]);
  });

  it('logs each refused request as an ordinary 400, with no stack trace', async () => {
    log.clear();
    expectRefused(await api.post('/purchaseorder', { customer_name: 'Alpha and Sons', notes: NUL }));
    expectRefused(await api.get('/customer/%00'));
    const requests = log.records().filter((entry) => entry.msg === 'request');
    expect(requests.map((entry) => entry.status)).toEqual([400, 400]);
  });
});
