import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { adminHeader, expectKeyOpensApi } from '../support/auth.js';
import { suiteResource } from '../support/suite-resource.js';
import { startTestApp, suiteApp, testTargets, type TestApp } from '../support/test-app.js';

const ISSUER = 'https://idp.example.test/realms/acme';
const AUDIENCE = 'tessera-api';

/** An identity provider of the test's own: a key pair, and its JWKS served over HTTP on loopback. */
class TestIdp {
  requests = 0;
  private constructor(
    private readonly privateKey: CryptoKey,
    readonly publicKey: CryptoKey,
    private readonly server: Server,
  ) {}

  static async start(): Promise<TestIdp> {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' };
    const server = createServer((req, res) => {
      idp.requests += 1;
      if (req.url !== '/certs') return void res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // Set before anyone can know the port, so before the first request.
    const idp = new TestIdp(privateKey, publicKey, server);
    return idp;
  }

  get jwksUri(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/certs`;
  }

  /** A token as the IdP would issue it; `overrides` change claims or the signing key. */
  async token(
    claims: JWTPayload,
    overrides: { key?: CryptoKey; issuer?: string; audience?: string; expiresAt?: number } = {},
  ): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'key-1' })
      .setIssuer(overrides.issuer ?? ISSUER)
      .setAudience(overrides.audience ?? AUDIENCE)
      .setIssuedAt(now - 10)
      .setExpirationTime(overrides.expiresAt ?? now + 3600)
      .sign(overrides.key ?? this.privateKey);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

// The provider does not touch the database, so the first target (SQLite) is enough for the sample.
const target = testTargets()[0]!;

describe(`sample provider oidc [${target.name}]`, () => {
  let idp: TestIdp;
  let t: TestApp;
  suiteResource(
    () => TestIdp.start(),
    (started) => started.stop(),
    (started) => {
      idp = started;
    },
  );
  suiteApp(
    target,
    () => ({
      env: {
        AUTH_PROVIDER: 'oidc',
        AUTH_PROVIDER_CONFIG: JSON.stringify({
          issuer: ISSUER,
          audience: AUDIENCE,
          jwksUri: idp.jwksUri,
          userClaim: 'preferred_username',
          rolesClaim: 'realm_access.roles',
          roleMap: { 'api-admin': 'Full access', 'api-reader': ['Read only'] },
          globalClaims: { employee_id: 'employee_id', region: 'region' },
        }),
      },
    }),
    (app) => {
      t = app;
    },
  );
  const login = (body: object) => t.http().post(`${t.base}/@authentication`).send(body);
  const ada = {
    sub: 'f3a9-11',
    preferred_username: 'ada',
    email: 'ada@example.org',
    employee_id: 7,
    region: 'north',
    realm_access: { roles: ['api-admin', 'offline_access'] },
  };

  it('logs in with an ID token; the token opens @serverinfo and the customer resource', async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 1800;
    const res = await login({ id_token: await idp.token(ada, { expiresAt }) }).expect(200);
    expect(res.body).toMatchObject({ email: 'ada@example.org', expiration: new Date(expiresAt * 1000).toISOString() });
    await expectKeyOpensApi(t, res.body.apikey);
  });

  it("maps claims to the token's user, roles and globals, and accepts an access token too", async () => {
    await login({
      access_token: await idp.token({ ...ada, preferred_username: 'bea', realm_access: { roles: ['api-reader', 'api-admin'] } }),
    }).expect(200);
    const tokens = await t
      .http()
      .get('/admin/v1/tokens?pagesize=1000')
      .set(...(await adminHeader(t)))
      .expect(200);
    expect(tokens.body.items).toContainEqual(
      expect.objectContaining({
        userIdentifier: 'bea',
        origin: 'provider',
        roles: ['Read only', 'Full access'],
        globals: { employee_id: 7, region: 'north' },
      }),
    );
  });

  it('fetches the JWKS once and then serves logins from its cache', async () => {
    const before = idp.requests;
    for (let i = 0; i < 3; i++) await login({ id_token: await idp.token(ada) }).expect(200);
    expect(idp.requests).toBe(before);
    expect(idp.requests).toBe(1);
  });

  it.each([
    [
      'a bad signature',
      async () => idp.token(ada, { key: (await generateKeyPair('RS256')).privateKey }),
      "the token's signature is not valid",
    ],
    ['a wrong issuer', () => idp.token(ada, { issuer: 'https://evil.example.test' }), 'the token was issued by another issuer'],
    ['a wrong audience', () => idp.token(ada, { audience: 'some-other-app' }), 'the token is meant for another audience'],
    ['an expired token', () => idp.token(ada, { expiresAt: Math.floor(Date.now() / 1000) - 3600 }), 'the token has expired'],
    [
      'a token without a mapped role',
      () => idp.token({ ...ada, realm_access: { roles: ['offline_access'] } }),
      'the token grants no role in this API',
    ],
    ['a token that is not a JWT', async () => 'not.a.token', 'the token is malformed'],
  ])('refuses %s with 401 / 4013', async (_what, makeToken, reason) => {
    const res = await login({ id_token: await makeToken() }).expect(401);
    expect(res.body).toEqual({ statusCode: 401, errorCode: 4013, errorMessage: `Login failed: ${reason}.` });
  });

  it('refuses a token whose signature was tampered with: claims changed after signing', async () => {
    const [header, , signature] = (await idp.token(ada)).split('.');
    const forged = Buffer.from(
      JSON.stringify({
        ...ada,
        iss: ISSUER,
        aud: AUDIENCE,
        exp: 9999999999,
        realm_access: { roles: ['api-admin'] },
        preferred_username: 'root',
      }),
    ).toString('base64url');
    const res = await login({ id_token: `${header}.${forged}.${signature}` }).expect(401);
    expect(res.body.errorMessage).toBe("Login failed: the token's signature is not valid.");
  });

  it('refuses a login without a token, and username/password of a built-in user', async () => {
    await login({ username: 'demo', password: 'Password1' }).expect(401);
    expect((await login({}).expect(401)).body.errorCode).toBe(4013);
  });

  it('asks for an id_token at @login_info', async () => {
    expect((await t.http().get(`${t.base}/@login_info`).expect(200)).body.fields).toEqual([
      { name: 'id_token', display: 'ID token from your identity provider', type: 'password' },
    ]);
  });

  it('verifies with a static public key instead of a JWKS URL', async () => {
    const pem = await exportSPKI(idp.publicKey);
    const app = await startTestApp(target, {
      env: {
        AUTH_PROVIDER: 'oidc',
        AUTH_PROVIDER_CONFIG: JSON.stringify({ issuer: ISSUER, audience: AUDIENCE, publicKey: pem, roleMap: { admin: 'Full access' } }),
      },
    });
    try {
      const ok = await app
        .http()
        .post(`${app.base}/@authentication`)
        .send({ id_token: await idp.token({ sub: 'svc-1', roles: ['admin'] }) })
        .expect(200);
      await expectKeyOpensApi(app, ok.body.apikey);
      const other = await idp.token({ sub: 'svc-1', roles: ['admin'] }, { key: (await generateKeyPair('RS256')).privateKey });
      await app.http().post(`${app.base}/@authentication`).send({ id_token: other }).expect(401);
    } finally {
      await app.close();
    }
  });
});
