import { TESSERA_VERSION } from '../src/config/version.js';
import { adminHeader, createManualToken, createUser } from './support/auth.js';
import { capturedLog, type CapturedLog } from './support/captured-log.js';
import { describeEachTarget, suiteApp, TEST_ADMIN_USER, type TestApp } from './support/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document, walked by path; the assertions on it are its type check
type Json = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every `$ref` in the document, with where it sits. */
function refsIn(node: unknown, at = '#'): Array<{ at: string; ref: string }> {
  if (Array.isArray(node)) return node.flatMap((item, i) => refsIn(item, `${at}/${i}`));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === '$ref' && typeof value === 'string' ? [{ at, ref: value }] : refsIn(value, `${at}/${key}`),
  );
}

/** Every key named `name` anywhere in the document. */
function keysNamed(node: unknown, name: string, at = '#'): string[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => keysNamed(item, name, `${at}/${i}`));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => [...(key === name ? [at] : []), ...keysNamed(value, name, `${at}/${key}`)]);
}

function resolve(document: Json, ref: string): Json | undefined {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .reduce<Json | undefined>(
      (node, token) => (node !== undefined && Object.hasOwn(node, token) ? (node[token] as Json) : undefined),
      document,
    );
}

/**
 * Why `value` does not fit `schema` (the keywords the admin document uses), or [] when it fits. Objects
 * with `properties` must hold every `required` key and no key the schema does not name, so a field a
 * view gains without its documentation fails here.
 */
function misfits(document: Json, schema: Json, value: unknown, at = '$'): string[] {
  if (schema.$ref) return misfits(document, resolve(document, schema.$ref as string)!, value, at);
  if (schema.allOf) {
    const parts = schema.allOf as Json[];
    const merged: Json = { type: 'object', required: [], properties: {} };
    for (const part of parts.map((p) => (p.$ref ? resolve(document, p.$ref as string)! : p))) {
      merged.required.push(...((part.required as string[] | undefined) ?? []));
      Object.assign(merged.properties, part.properties);
    }
    return misfits(document, merged, value, at);
  }
  const types = schema.type === undefined ? undefined : [schema.type].flat();
  const typeOf = value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
  if (types && !types.includes(typeOf) && !(typeOf === 'integer' && types.includes('number')))
    return [`${at}: ${typeOf}, not ${types.join('|')}`];
  if (schema.enum && !(schema.enum as unknown[]).includes(value)) return [`${at}: ${JSON.stringify(value)} is not in the enum`];
  if (schema.format === 'date-time' && typeof value === 'string' && Number.isNaN(Date.parse(value))) return [`${at}: not a date-time`];
  if (typeOf === 'array' && schema.items)
    return (value as unknown[]).flatMap((item, i) => misfits(document, schema.items as Json, item, `${at}[${i}]`));
  if (typeOf === 'object') {
    const object = value as Json;
    const problems: string[] = [];
    for (const key of (schema.required as string[] | undefined) ?? [])
      if (!Object.hasOwn(object, key)) problems.push(`${at}.${key}: missing`);
    for (const [key, item] of Object.entries(object)) {
      const property = (schema.properties as Json | undefined)?.[key] as Json | undefined;
      if (property) problems.push(...misfits(document, property, item, `${at}.${key}`));
      else if (typeof schema.additionalProperties === 'object')
        problems.push(...misfits(document, schema.additionalProperties as Json, item, `${at}.${key}`));
      else if (schema.properties) problems.push(`${at}.${key}: not documented`);
    }
    return problems;
  }
  return [];
}

/** The success schema of an operation. */
function answerSchema(document: Json, method: string, path: string, status: number): Json {
  return document.paths[path][method].responses[String(status)].content['application/json'].schema as Json;
}

describeEachTarget('the admin API OpenAPI document', (target) => {
  let t: TestApp;
  let log: CapturedLog;
  let doc: Json;
  let admin: [string, string];

  suiteApp(
    target,
    () => {
      // Nest's own "Mapped {path, METHOD} route" lines (debug for Tessera): the routes the app really registered.
      log = capturedLog('debug');
      return { logger: log.logger, env: { LOG_LEVEL: 'debug' } };
    },
    async (app) => {
      t = app;
      admin = await adminHeader(t);
      await createUser(t, { login: 'oa-user', password: 'Open-Api-Pass1', roles: ['Read only'], email: 'oa@example.com' });
      await createManualToken(t, { roles: ['Read only'], label: 'oa token' });
      doc = (await t.http().get('/admin/v1/openapi.json').expect(200)).body as Json;
    },
  );

  it('is served without a token, as JSON, and says nothing of this installation', async () => {
    const res = await t.http().get('/admin/v1/openapi.json').expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const text = res.text;
    // Not the project's roles or users, not the admins, not the version or the settings: the API's shape only.
    // Its one server is where the client reached it, as @docs's is: paths start with /admin/v1.
    const elsewhere = await t.http().get('/admin/v1/openapi.json').set('Host', 'api.example.com:8443').expect(200);
    expect(elsewhere.body.servers).toEqual([{ url: 'http://api.example.com:8443' }]);
    const secrets = ['Full access', 'Read only', 'Sales rep', 'oa-user', 'oa token', TEST_ADMIN_USER, TESSERA_VERSION, t.base];
    expect(secrets.filter((secret) => text.includes(secret))).toEqual([]);
  });

  it('documents every admin route the application registered, and no other', () => {
    const registered = log
      .records()
      .map((record) => /^Mapped \{(\/admin\/v1[^,]*), (\w+)\} route$/.exec(String(record.msg)))
      .filter((match): match is RegExpExecArray => match !== null)
      .map(([, path, method]) => `${method!.toLowerCase()} ${path!.replace(/:([^/]+)/g, '{$1}')}`);
    expect(registered.length).toBeGreaterThan(20);
    const documented = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
      Object.keys(item as Json)
        .filter((key) => METHODS.includes(key))
        .map((method) => `${method} ${path}`),
    );
    expect(documented.sort()).toEqual([...new Set(registered)].sort());
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const [method, operation] of Object.entries(item as Json)) {
        expect({ at: `${method} ${path}`, summary: typeof operation.summary }).toEqual({ at: `${method} ${path}`, summary: 'string' });
        const success = Object.entries(operation.responses as Json).filter(([status]) => status.startsWith('2'));
        expect(success).toHaveLength(1);
        const [status, response] = success[0]!;
        if (status !== '204')
          expect({ at: `${method} ${path}`, content: Object.keys(response.content ?? {}) }).toEqual({
            at: `${method} ${path}`,
            content: ['application/json'],
          });
      }
    }
  });

  it('is a structurally valid OpenAPI 3.1 document', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toEqual(expect.objectContaining({ title: expect.any(String), version: expect.any(String) }));
    const schemes = Object.keys(doc.components.securitySchemes as Json);
    expect(doc.components.securitySchemes.adminToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    const tags = new Set((doc.tags as Json[]).map((tag) => tag.name as string));
    const operationIds: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      expect(path).toMatch(/^\/admin\/v1\//);
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const [method, operation] of Object.entries(item as Json)) {
        const at = `${method} ${path}`;
        expect({ at, method: METHODS.includes(method) }).toEqual({ at, method: true });
        operationIds.push(operation.operationId as string);
        for (const tag of operation.tags as string[]) expect({ at, tag: tags.has(tag) }).toEqual({ at, tag: true });
        const parameters = (operation.parameters ?? []) as Json[];
        for (const parameter of parameters) {
          expect(parameter).toEqual(
            expect.objectContaining({
              name: expect.any(String),
              in: expect.stringMatching(/^(path|query|header|cookie)$/),
              schema: expect.any(Object),
            }),
          );
        }
        // Every template of the path is a required path parameter, and there are no others.
        const pathParameters = parameters.filter((p) => p.in === 'path');
        expect({ at, names: pathParameters.map((p) => p.name) }).toEqual({ at, names: templated });
        for (const p of pathParameters) expect(p.required).toBe(true);
        expect({ at, responses: Object.keys(operation.responses as Json).every((status) => /^[1-5]\d\d$/.test(status)) }).toEqual({
          at,
          responses: true,
        });
        if (operation.requestBody) expect(Object.keys(operation.requestBody.content as Json)).toEqual(['application/json']);
        for (const requirement of (operation.security ?? doc.security) as Json[]) {
          for (const name of Object.keys(requirement)) expect(schemes).toContain(name);
        }
      }
    }
    expect(new Set(operationIds).size).toBe(operationIds.length);
    const broken = refsIn(doc).filter(({ ref }) => resolve(doc, ref) === undefined);
    expect(broken).toEqual([]);
    // Every class-validator check of every DTO has its JSON Schema counterpart (see dto-schema.ts).
    expect(keysNamed(doc, 'x-unmapped-checks')).toEqual([]);
  });

  it('describes each request body from its DTO: required fields, types and limits', () => {
    const schemaOf = (method: string, path: string): Json =>
      resolve(doc, doc.paths[path][method].requestBody.content['application/json'].schema.$ref as string)!;
    const createUser = schemaOf('post', '/admin/v1/users');
    expect(createUser.required).toEqual(['login', 'password']);
    expect(createUser.additionalProperties).toBe(false);
    expect(createUser.properties).toMatchObject({
      login: { type: 'string', pattern: '^[^\\s:]{1,100}$' },
      password: { type: 'string', maxLength: 1024 },
      roles: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 100 } },
      globals: { type: 'object' },
      email: { type: ['string', 'null'], format: 'email', maxLength: 254 },
      keyLifetimeSeconds: { type: ['integer', 'null'], minimum: 1, maximum: 10 * 365 * 86400 },
      active: { type: 'boolean' },
    });
    expect(schemaOf('patch', '/admin/v1/users/{login}').required).toBeUndefined();
    expect(schemaOf('post', '/admin/v1/tokens')).toMatchObject({
      required: ['label'],
      properties: {
        label: { type: 'string', minLength: 1, maxLength: 200 },
        expiration: { type: ['string', 'null'], format: 'date-time' },
      },
    });
    expect(schemaOf('post', '/admin/v1/admins')).toMatchObject({
      required: expect.arrayContaining(['username', 'password', 'role']),
      properties: { role: { enum: ['admin', 'auditor'] } },
    });
    expect(schemaOf('post', '/admin/v1/admins').required).toHaveLength(3);
    expect(schemaOf('put', '/admin/v1/@me/password').required).toEqual(['password', 'newPassword']);
    expect(schemaOf('post', '/admin/v1/@authentication').required).toEqual(['username', 'password']);
    expect(doc.paths['/admin/v1/users'].get.parameters.map((p: Json) => [p.name, p.in, p.required, p.schema.type])).toEqual([
      ['offset', 'query', false, 'integer'],
      ['pagesize', 'query', false, 'integer'],
    ]);
    expect(doc.paths['/admin/v1/tokens/{id}'].get.parameters[0].schema).toEqual({ type: 'integer' });
  });

  it.each([
    ['/admin/v1/users', { login: 'oa-required', password: 'Open-Api-Pass1' }],
    ['/admin/v1/tokens', { label: 'oa required' }],
    ['/admin/v1/admins', { username: 'oa-required-admin', password: 'Open-Api-Pass1', role: 'auditor' }],
  ])('lists exactly the fields POST %s cannot do without', async (path, minimal) => {
    const required = resolve(doc, doc.paths[path].post.requestBody.content['application/json'].schema.$ref as string)!.required as string[];
    expect(required.sort()).toEqual(Object.keys(minimal).sort());
    for (const field of required) {
      const { [field]: _left, ...without } = minimal as Record<string, unknown>;
      const res = await t
        .http()
        .post(path)
        .set(...admin)
        .send(without);
      expect({ field, status: res.status }).toEqual({ field, status: 400 });
    }
    await t
      .http()
      .post(path)
      .set(...admin)
      .send(minimal)
      .expect(201);
  });

  it('describes what the endpoints really answer', async () => {
    const tokenId = (
      (
        await t
          .http()
          .get('/admin/v1/tokens')
          .set(...admin)
          .expect(200)
      ).body.items[0] as Json
    ).id as number;
    const reads: Array<[string, string]> = [
      ['/admin/v1/@me', '/admin/v1/@me'],
      ['/admin/v1/admins', '/admin/v1/admins'],
      [`/admin/v1/admins/${TEST_ADMIN_USER}`, '/admin/v1/admins/{username}'],
      ['/admin/v1/users', '/admin/v1/users'],
      ['/admin/v1/users/oa-user', '/admin/v1/users/{login}'],
      ['/admin/v1/tokens', '/admin/v1/tokens'],
      [`/admin/v1/tokens/${tokenId}`, '/admin/v1/tokens/{id}'],
      ['/admin/v1/audit', '/admin/v1/audit'],
      ['/admin/v1/roles', '/admin/v1/roles'],
      ['/admin/v1/provider', '/admin/v1/provider'],
    ];
    for (const [url, path] of reads) {
      const res = await t
        .http()
        .get(url)
        .set(...admin)
        .expect(200);
      expect({ url, misfits: misfits(doc, answerSchema(doc, 'get', path, 200), res.body) }).toEqual({ url, misfits: [] });
    }
    const created = await t
      .http()
      .post('/admin/v1/tokens')
      .set(...admin)
      .send({ label: 'oa shape', roles: ['Read only'], globals: { region: 'north' } })
      .expect(201);
    expect(misfits(doc, answerSchema(doc, 'post', '/admin/v1/tokens', 201), created.body)).toEqual([]);
    const login = await t
      .http()
      .post('/admin/v1/@authentication')
      .send({ username: TEST_ADMIN_USER, password: 'test-admin-password' })
      .expect(200);
    expect(misfits(doc, answerSchema(doc, 'post', '/admin/v1/@authentication', 200), login.body)).toEqual([]);
    const refused = await t
      .http()
      .get('/admin/v1/users/nobody-here')
      .set(...admin)
      .expect(404);
    expect(misfits(doc, doc.components.responses.Error404.content['application/json'].schema as Json, refused.body)).toEqual([]);
    // The checker itself sees an undocumented field.
    expect(misfits(doc, answerSchema(doc, 'get', '/admin/v1/@me', 200), { username: 'x', role: 'admin', extra: 1 })).toEqual([
      '$.extra: not documented',
    ]);
  });
});
