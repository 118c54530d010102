import type { INestApplication } from '@nestjs/common';
import { ApiToken } from '../src/tokens/api-token.entity.js';
import { PURGE_BATCH, TokenPurge } from '../src/tokens/token-purge.js';
import { hashTokenValue } from '../src/tokens/token-value.js';
import { authHeader, loginAs } from './support/auth.js';
import { ManualClock } from './support/manual-clock.js';
import { anotherInstance, describeEachTarget, suiteApp, TEST_ADMIN_PASSWORD, TEST_ADMIN_USER, type TestApp } from './support/test-app.js';

const RETENTION_DAYS = 30;
const DAY_SECONDS = 86_400;

describeEachTarget(`tokens purged ${RETENTION_DAYS} days after they expired or were disabled`, (target) => {
  let t: TestApp;
  const clock = new ManualClock();

  suiteApp(target, { clock, env: { TOKEN_RETENTION_DAYS: String(RETENTION_DAYS) } }, (app) => {
    t = app;
  });

  const sweep = () => t.app.get(TokenPurge).sweep();
  const errorCodeOf = async (key: string) =>
    (
      await t
        .http()
        .get(`${t.base}/@serverinfo`)
        .set(...authHeader(key))
    ).body.errorCode as number | undefined;
  const tokenIdOf = async (key: string) =>
    (await t.dataSource.getRepository(ApiToken).findOneByOrFail({ keyHash: hashTokenValue(key) })).id;
  /** The clock moves by days here: a fresh admin token each time (adminHeader's would expire). */
  const freshAdmin = async (): Promise<[string, string]> => {
    const res = await t
      .http()
      .post('/admin/v1/@authentication')
      .send({ username: TEST_ADMIN_USER, password: TEST_ADMIN_PASSWORD })
      .expect(200);
    return ['Authorization', `Bearer ${res.body.apikey}`];
  };
  const adminGetToken = async (id: number) =>
    (
      await t
        .http()
        .get(`/admin/v1/tokens/${id}`)
        .set(...(await freshAdmin()))
    ).status;
  const createManualToken = async (options: { roles: string[]; expiration?: string }): Promise<string> => {
    const res = await t
      .http()
      .post('/admin/v1/tokens')
      .set(...(await freshAdmin()))
      .send({ label: 'purge test', ...options })
      .expect(201);
    return res.body.apikey as string;
  };
  const iso = (secondsFromNow: number) => new Date(clock.now() + secondsFromNow * 1000).toISOString();

  it('keeps them for the retention period (answering 4012 / 4011), then deletes them; active tokens stay', async () => {
    const login = await loginAs(t, 'demo', 'Password1'); // expires in a day
    const shortLived = await createManualToken({ roles: ['Read only'], expiration: iso(3600) });
    const disabled = await createManualToken({ roles: ['Read only'] });
    const forever = await createManualToken({ roles: ['Read only'] });
    const ids = {
      login: await tokenIdOf(login),
      shortLived: await tokenIdOf(shortLived),
      disabled: await tokenIdOf(disabled),
      forever: await tokenIdOf(forever),
    };
    await t
      .http()
      .post(`/admin/v1/tokens/${ids.disabled}/disable`)
      .set(...(await freshAdmin()))
      .expect(200);

    clock.advance(2 * DAY_SECONDS);
    expect(await sweep()).toBe(0);
    expect(await errorCodeOf(login)).toBe(4012);
    expect(await errorCodeOf(shortLived)).toBe(4012);
    expect(await errorCodeOf(disabled)).toBe(4011);
    for (const id of Object.values(ids)) expect(await adminGetToken(id)).toBe(200);

    // 30.5 days after the disabling and the hour-long token's expiry; 29.5 after the login token's.
    clock.advance((RETENTION_DAYS - 1.5) * DAY_SECONDS);
    expect(await sweep()).toBe(2);
    expect(await adminGetToken(ids.shortLived)).toBe(404);
    expect(await adminGetToken(ids.disabled)).toBe(404);
    expect(await adminGetToken(ids.login)).toBe(200);
    expect(await errorCodeOf(disabled)).toBe(4011);

    clock.advance(DAY_SECONDS);
    expect(await sweep()).toBe(1);
    expect(await adminGetToken(ids.login)).toBe(404);
    // Unknown now, no longer "expired".
    expect(await errorCodeOf(login)).toBe(4011);
    expect(await adminGetToken(ids.forever)).toBe(200);
    await t
      .http()
      .get(`${t.base}/@serverinfo`)
      .set(...authHeader(forever))
      .expect(200);
  });

  it(`sweeps at boot; two instances sweeping a backlog of several batches (${PURGE_BATCH} each) at once delete each row once`, async () => {
    const stale = await createManualToken({ roles: ['Read only'], expiration: iso(60) });
    clock.advance((RETENTION_DAYS + 1) * DAY_SECONDS);
    const repository = t.dataSource.getRepository(ApiToken);
    const other: INestApplication = await anotherInstance(t, clock);
    try {
      await other.get(TokenPurge).whenIdle();
      expect(await repository.countBy({ keyHash: hashTokenValue(stale) })).toBe(0);

      const count = 2 * PURGE_BATCH + 37;
      const expiredLongAgo = clock.now() - (RETENTION_DAYS + 1) * DAY_SECONDS * 1000;
      const rows = Array.from({ length: count }, (_, i) => ({
        keyHash: hashTokenValue(`backlog-${i}`),
        label: `backlog ${i}`,
        userIdentifier: null,
        roles: [],
        globals: {},
        userInfo: null,
        expiration: i % 2 === 0 ? expiredLongAgo : null,
        disabled: i % 2 === 1,
        disabledAt: i % 2 === 1 ? expiredLongAgo : null,
        origin: 'manual' as const,
        createdAt: expiredLongAgo - 1000,
        lastUsedAt: null,
      }));
      for (let i = 0; i < rows.length; i += 200) await repository.insert(rows.slice(i, i + 200));
      const before = await repository.count();
      const [mine, theirs] = await Promise.all([sweep(), other.get(TokenPurge).sweep()]);
      expect(mine + theirs).toBe(count);
      expect(await repository.count()).toBe(before - count);
    } finally {
      await other.close();
    }
  });
});
