import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { User } from '../src/users/user.entity.js';
import { apiWithKey } from './support/api.js';
import { adminHeader, authHeader, createManualToken, createUser, loginAs } from './support/auth.js';
import { ManualClock } from './support/manual-clock.js';
import { anotherInstance, describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

const CACHE_SECONDS = 5;

describeEachTarget('a login token follows its user', (target) => {
  let t: TestApp;
  const clock = new ManualClock();

  suiteApp(target, { clock, env: { TOKEN_CACHE_SECONDS: String(CACHE_SECONDS) } }, (app) => {
    t = app;
  });

  const patchUser = async (login: string, changes: object, server = () => t.http()) =>
    server()
      .patch(`/admin/v1/users/${login}`)
      .set(...(await adminHeader(t)))
      .send(changes)
      .expect(200);
  const newProduct = (name: string) => ({ name, price: 1 });
  const salesreps = (rows: Array<{ salesrep_id?: number }>) => [...new Set(rows.map((r) => r.salesrep_id))];
  const adminTokenView = async (apikeyUser: string) => {
    const res = await t
      .http()
      .get('/admin/v1/tokens?pagesize=500')
      .set(...(await adminHeader(t)))
      .expect(200);
    return (res.body.items as Array<Record<string, unknown>>).filter((x) => x.userIdentifier === apikeyUser);
  };

  it("refuses a write with a demoted user's live token at once", async () => {
    await createUser(t, { login: 'writer', password: 'Password1', roles: ['Full access'] });
    const api = apiWithKey(t, await loginAs(t, 'writer', 'Password1'));
    await api.post('/product', newProduct('Before demotion')).expect(201);
    await patchUser('writer', { roles: ['Read only'] });
    const res = await api.post('/product', newProduct('After demotion'));
    expect(res.status).toBe(403);
    expect(res.body.errorCode).toBe(4030);
    await api.get('/product').expect(200);
    // The admin list shows what the token now carries.
    expect(await adminTokenView('writer')).toEqual([expect.objectContaining({ origin: 'login', roles: ['Read only'], status: 'active' })]);
    // And a promotion reaches it the same way.
    await patchUser('writer', { roles: ['Full access'] });
    await api.post('/product', newProduct('After promotion')).expect(201);
  });

  it('reads the rows of the changed global', async () => {
    await createUser(t, { login: 'rep', password: 'Password1', roles: ['Sales rep'], globals: { employee_id: 1 } });
    const api = apiWithKey(t, await loginAs(t, 'rep', 'Password1'));
    const before = await api.get('/purchaseorder').expect(200);
    expect(before.body.length).toBeGreaterThan(0);
    expect(salesreps(before.body)).toEqual([1]);
    await patchUser('rep', { globals: { employee_id: 2 } });
    const after = await api.get('/purchaseorder').expect(200);
    expect(after.body.length).toBeGreaterThan(0);
    expect(salesreps(after.body)).toEqual([2]);
    // Dropping the global the row filter needs denies those rows, as for a token that never had it.
    await patchUser('rep', { globals: {} });
    const without = await api.get('/purchaseorder');
    expect(without.status === 403 || (without.status === 200 && without.body.length === 0)).toBe(true);
  });

  it("disables the user's tokens when an operator resets the password", async () => {
    await createUser(t, { login: 'reset-me', password: 'Password1', roles: ['Read only'] });
    const old = await loginAs(t, 'reset-me', 'Password1');
    await t
      .http()
      .get(`${t.base}/product`)
      .set(...authHeader(old))
      .expect(200);
    await t
      .http()
      .put('/admin/v1/users/reset-me/password')
      .set(...(await adminHeader(t)))
      .send({ password: 'Another-Passw0rd' })
      .expect(204);
    const res = await t
      .http()
      .get(`${t.base}/product`)
      .set(...authHeader(old));
    expect(res.status).toBe(401);
    expect(res.body.errorCode).toBe(4011);
    const revalidated = await t.http().post(`${t.base}/@authentication`).send({ apikey: old });
    expect(revalidated.status).toBe(401);
    expect(revalidated.body.errorCode).toBe(4011);
    expect(await adminTokenView('reset-me')).toEqual([expect.objectContaining({ status: 'disabled' })]);
    const fresh = await loginAs(t, 'reset-me', 'Another-Passw0rd');
    await t
      .http()
      .get(`${t.base}/product`)
      .set(...authHeader(fresh))
      .expect(200);
    expect((await t.http().post(`${t.base}/@authentication`).send({ username: 'reset-me', password: 'Password1' })).status).toBe(401);
  });

  it('keeps the roles and globals of hand-made tokens', async () => {
    const key = await createManualToken(t, { roles: ['Sales rep'], globals: { employee_id: 1 }, userIdentifier: 'export-robot' });
    const api = apiWithKey(t, key);
    await patchUser('sam', { roles: ['Read only'], globals: { employee_id: 3 } });
    const orders = await api.get('/purchaseorder').expect(200);
    expect(salesreps(orders.body)).toEqual([1]);
    expect((await api.get('/customer').expect(200)).body[0]).not.toHaveProperty('credit_limit');
    expect(await adminTokenView('export-robot')).toEqual([
      expect.objectContaining({ origin: 'manual', roles: ['Sales rep'], globals: { employee_id: 1 } }),
    ]);
    await patchUser('sam', { roles: ['Sales rep'], globals: { employee_id: 1 } });
  });

  it('refuses the token of a user deleted behind the service’s back, once the cache time has passed', async () => {
    await createUser(t, { login: 'vanishing', password: 'Password1', roles: ['Read only'] });
    const key = await loginAs(t, 'vanishing', 'Password1');
    await t
      .http()
      .get(`${t.base}/product`)
      .set(...authHeader(key))
      .expect(200);
    await t.dataSource.getRepository(User).delete({ login: 'vanishing' });
    clock.advance(CACHE_SECONDS);
    const res = await t
      .http()
      .get(`${t.base}/product`)
      .set(...authHeader(key));
    expect(res.status).toBe(401);
    expect(res.body.errorCode).toBe(4011);
  });

  it('takes a demotion made by another instance within TOKEN_CACHE_SECONDS (PostgreSQL: at once)', async () => {
    const other: INestApplication = await anotherInstance(t, clock);
    try {
      await createUser(t, { login: 'remote', password: 'Password1', roles: ['Full access'] });
      const api = apiWithKey(t, await loginAs(t, 'remote', 'Password1'));
      await api.post('/product', newProduct('Remote before')).expect(201);
      await patchUser('remote', { roles: ['Read only'] }, () => request(other.getHttpServer()));
      if (target.database === 'postgres') {
        // PostgreSQL: the other instance's signal (LISTEN/NOTIFY) empties this one's cache at once.
        const until = Date.now() + 1000;
        let status = 0;
        while (status !== 403 && Date.now() < until)
          status = (await api.post('/product', newProduct(`Remote signalled ${Date.now()}`))).status;
        expect(status).toBe(403);
        return;
      }
      // This instance still holds the token row it read (at most TOKEN_CACHE_SECONDS)...
      clock.advance(CACHE_SECONDS - 1);
      await api.post('/product', newProduct('Remote within the cache time')).expect(201);
      // ...and reads the user again once that has passed.
      clock.advance(1);
      const res = await api.post('/product', newProduct('Remote after'));
      expect(res.status).toBe(403);
      expect(res.body.errorCode).toBe(4030);
    } finally {
      await other.close();
    }
  });
});
