import { Client } from 'ldapts';
import { adminHeader, expectKeyOpensApi } from '../support/auth.js';
import { startSlapd, TEST_SLAPD, type Slapd } from '../support/slapd.js';
import { suiteResource } from '../support/suite-resource.js';
import { startTestApp, suiteApp, testTargets, type TestApp } from '../support/test-app.js';

/** A user of the test directory. */
function person(uid: string, password: string, extra: Record<string, string> = {}) {
  return {
    dn: `uid=${uid},ou=people,dc=example,dc=org`,
    attributes: { objectClass: ['inetOrgPerson'], uid: uid.replace(/\\/g, ''), cn: uid, sn: 'Test', userPassword: password, ...extra },
  };
}

function group(cn: string, members: string[]) {
  return { dn: `cn=${cn},ou=groups,dc=example,dc=org`, attributes: { objectClass: ['groupOfNames'], cn, member: members } };
}

/** DNs as they are written in the directory: the special characters of the odd user names escaped (RFC 4514). */
const ALICE = 'uid=alice,ou=people,dc=example,dc=org';
const BOB = 'uid=bob,ou=people,dc=example,dc=org';
const CAROL = 'uid=carol,ou=people,dc=example,dc=org';
const STAR = 'uid=star*(x),ou=people,dc=example,dc=org';
const COMMA = "uid=d'artagnan\\, jr,ou=people,dc=example,dc=org";

// slapd is a system package: without it this suite is skipped (the run says so up front);
// .ci/run installs it. The provider does not touch the database, so the first target is enough.
const describeWithSlapd = TEST_SLAPD ? describe : describe.skip;
const target = testTargets()[0]!;

describeWithSlapd(`sample provider ldap against slapd [${target.name}]`, () => {
  let slapd: Slapd;
  let t: TestApp;
  suiteResource(
    startSlapd,
    (started) => started.stop(),
    async (started) => {
      slapd = started;
      await slapd.add([
        { dn: 'ou=people,dc=example,dc=org', attributes: { objectClass: ['organizationalUnit'], ou: 'people' } },
        { dn: 'ou=groups,dc=example,dc=org', attributes: { objectClass: ['organizationalUnit'], ou: 'groups' } },
        person('alice', 'alice-pw-1', { mail: 'alice@example.org', employeeNumber: '42' }),
        person('bob', 'bob-pw-1'),
        person('carol', 'carol-pw-1'),
        person('star*(x)', 'star-pw-1'),
        person("d'artagnan\\, jr", 'comma-pw-1'),
        group('api-admins', [ALICE, STAR, COMMA]),
        group('api-readers', [BOB, ALICE]),
        group('staff', [CAROL, BOB]),
      ]);
    },
    30_000,
  );
  suiteApp(
    target,
    () => ({
      env: {
        AUTH_PROVIDER: 'ldap',
        AUTH_PROVIDER_CONFIG: JSON.stringify({
          url: slapd.url,
          userDn: 'uid={username},ou=people,dc=example,dc=org',
          groupBase: 'ou=groups,dc=example,dc=org',
          roleMap: { 'api-admins': 'Full access', 'api-readers': 'Read only' },
          globalAttributes: { employeeNumber: 'employee_id' },
        }),
      },
    }),
    (app) => {
      t = app;
    },
  );
  const login = (username: unknown, password: unknown) => t.http().post(`${t.base}/@authentication`).send({ username, password });
  const tokenOf = async (userIdentifier: string) => {
    const res = await t
      .http()
      .get('/admin/v1/tokens?pagesize=1000')
      .set(...(await adminHeader(t)))
      .expect(200);
    return res.body.items.filter((x: { userIdentifier: string }) => x.userIdentifier === userIdentifier);
  };

  it('runs against a real directory, one that takes a DN with an empty password as a successful bind', async () => {
    const client = new Client({ url: slapd.url });
    try {
      await client.bind(ALICE, 'alice-pw-1');
      await client.bind(ALICE, '');
      await expect(client.bind(ALICE, 'wrong')).rejects.toMatchObject({ code: 49 }); // invalidCredentials
    } finally {
      await client.unbind();
    }
  });

  it('logs in by binding as the user; the token opens @serverinfo and the customer resource', async () => {
    const res = await login('alice', 'alice-pw-1').expect(200);
    expect(res.body.email).toBe('alice@example.org');
    await expectKeyOpensApi(t, res.body.apikey);
  });

  it("maps the user's groups to roles and attributes to globals; unmapped groups give nothing", async () => {
    await login('bob', 'bob-pw-1').expect(200);
    expect(await tokenOf('alice')).toEqual([
      expect.objectContaining({ roles: ['Full access', 'Read only'], globals: { employee_id: '42' }, origin: 'provider' }),
    ]);
    expect(await tokenOf('bob')).toEqual([expect.objectContaining({ roles: ['Read only'], globals: {} })]);
  });

  it('refuses a user none of whose groups maps to a role', async () => {
    expect((await login('carol', 'carol-pw-1').expect(401)).body).toEqual({
      statusCode: 401,
      errorCode: 4013,
      errorMessage: 'Login failed: the account has no role in this API.',
    });
  });

  it.each([
    ['a wrong password', 'alice', 'wrong'],
    ['an unknown user', 'nobody', 'alice-pw-1'],
    ['an empty password (an unauthenticated bind that this directory would accept)', 'alice', ''],
    ['a built-in user', 'demo', 'Password1'],
    // A user name can steer neither the bind DN nor the group search:
    ['a wildcard for a user name', '*', 'alice-pw-1'],
    ['a user name with a filter in it', 'alice)(uid=*', 'alice-pw-1'],
    ['a user name with extra RDNs', 'alice,ou=people,dc=example,dc=org', 'alice-pw-1'],
    ['a user name with another DN in it', 'x,uid=alice', 'alice-pw-1'],
  ])('refuses %s with 401 / 4013 and one message', async (_what, username, password) => {
    expect((await login(username, password).expect(401)).body).toEqual({
      statusCode: 401,
      errorCode: 4013,
      errorMessage: 'Login failed: unknown user name or wrong password.',
    });
  });

  it('escapes user names in the DN (RFC 4514) and in the group filter (RFC 4515)', async () => {
    await login('star*(x)', 'star-pw-1').expect(200);
    await login("d'artagnan, jr", 'comma-pw-1').expect(200);
    expect(await tokenOf('star*(x)')).toEqual([expect.objectContaining({ roles: ['Full access'] })]);
    expect(await tokenOf("d'artagnan, jr")).toEqual([expect.objectContaining({ roles: ['Full access'] })]);
  });

  it('answers 401 / 4013, without hanging, when the directory is down', async () => {
    const down = await startTestApp(target, {
      env: {
        AUTH_PROVIDER: 'ldap',
        AUTH_PROVIDER_CONFIG: JSON.stringify({
          url: 'ldap://127.0.0.1:1',
          timeoutMs: 500,
          userDn: 'uid={username},ou=people,dc=example,dc=org',
          groupBase: 'ou=groups,dc=example,dc=org',
        }),
      },
    });
    try {
      const res = await down.http().post(`${down.base}/@authentication`).send({ username: 'alice', password: 'alice-pw-1' }).expect(401);
      expect(res.body.errorCode).toBe(4013);
    } finally {
      await down.close();
    }
  });
});
