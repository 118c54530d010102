import SwaggerParser from '@apidevtools/swagger-parser';
import { ErrorCode } from '../src/common/error-codes.js';
import { demoRules } from '../src/demo/rules.js';
import { API_HOST, apiAs, type Api } from './support/api.js';
import { adminHeader } from './support/auth.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

/**
 * The rest of LAC's meta endpoints (issue 27, items 4 and 5): `@resources/<ident>`, `@data_sources`, `@apioptions`,
 * `@rules`, `@perf` (admin tokens only), `@auth_provider_info/<ident>`, `@license`'s expiration, and `@docs` in
 * Swagger 2.0 (`?format=swagger2`), checked with a Swagger 2.0 validator.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies of many shapes

describeEachTarget('LAC meta endpoints', (target) => {
  let t: TestApp;
  let demo: Api;
  let readonly: Api;
  let sam: Api;
  let origin: string;

  suiteApp(target, {}, async (app) => {
    t = app;
    [demo, readonly, sam] = (await Promise.all(['demo', 'readonly', 'sam'].map((user) => apiAs(app, user)))) as [Api, Api, Api];
    origin = `http://${API_HOST}${app.base}`;
  });

  const anonymous = (path: string) => t.http().get(`${t.base}${path}`).set('Host', API_HOST);
  const expectError = (body: Json, statusCode: number, errorCode: number) =>
    expect(body).toEqual({ statusCode, errorCode, errorMessage: expect.any(String) });

  describe('@resources/<ident>', () => {
    it('answers one table resource by its plain or prefixed name, any case, with its attributes', async () => {
      const listed = ((await readonly.get('/@resources').expect(200)).body as Json[]).find((r) => r.name === 'customer');
      for (const ident of ['customer', 'main:customer', 'CUSTOMER']) {
        const one = (await readonly.get(`/@resources/${encodeURIComponent(ident)}`).expect(200)).body as Json;
        expect(one).toEqual({ ...listed, attributes: expect.any(Array) });
        expect(one['@metadata'].href).toBe(`${origin}/customer`);
        expect(one.attributes).toEqual(
          expect.arrayContaining([
            { name: 'name', column_name: 'name' },
            { name: 'balance', column_name: 'balance' },
          ]),
        );
      }
    });

    it('answers a custom resource with its attributes and sub-resources', async () => {
      const one = (await readonly.get('/@resources/Customers').expect(200)).body as Json;
      expect(one).toMatchObject({
        name: 'Customers',
        resource_type: 'Custom',
        entity: 'customer',
        '@metadata': { href: `${origin}/Customers` },
      });
      expect(one.attributes.length).toBeGreaterThan(0);
      expect(one.subresources.length).toBeGreaterThan(0);
    });

    it('is 404 / 4040 for an unknown name, 403 without meta access, 401 without a token', async () => {
      expectError((await readonly.get('/@resources/nosuch').expect(404)).body, 404, ErrorCode.NOT_FOUND);
      expectError((await readonly.get('/@resources/Customers.Orders').expect(404)).body, 404, ErrorCode.NOT_FOUND);
      expectError((await sam.get('/@resources/customer').expect(403)).body, 403, ErrorCode.FORBIDDEN);
      expectError((await anonymous('/@resources/customer').expect(401)).body, 401, ErrorCode.NO_TOKEN);
      expectError((await readonly.get('/@resources/customer?pagesize=2').expect(400)).body, 400, ErrorCode.BAD_REQUEST);
    });
  });

  describe('@data_sources', () => {
    it('names the prefix and the kind of database, never its URL, host, user or password', async () => {
      const res = await readonly.get('/@data_sources').expect(200);
      const tables = ((await readonly.get('/@tables').expect(200)).body as Json[]).length;
      // The demo's view, customer_summary, is counted under views and not tables.
      const views = ((await readonly.get('/@views').expect(200)).body as Json[]).length;
      expect(views).toBe(1);
      expect(res.body).toEqual([
        expect.objectContaining({ name: 'main', ident: 1, prefix: 'main', databaseType: t.config.database.kind, tables, views }),
      ]);
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(t.config.database.url);
      expect(text).not.toContain(t.config.database.safeUrl);
      if (target.database !== 'sqlite') {
        const url = new URL(t.config.database.url);
        expect(text).not.toContain(url.hostname);
        if (url.password) expect(text).not.toContain(url.password);
        expect(text).not.toContain(`"${url.username}"`);
      } else {
        expect(text).not.toContain(t.config.database.sqlitePath!);
      }
      expectError((await sam.get('/@data_sources').expect(403)).body, 403, ErrorCode.FORBIDDEN);
    });
  });

  describe('@apioptions', () => {
    it("lists the options in LAC's shape, keyed by ident, values as text", async () => {
      const options = (await readonly.get('/@apioptions').expect(200)).body as Record<string, Json>;
      const byName = new Map(Object.values(options).map((o) => [o.name as string, o]));
      expect(options['1']).toEqual({
        ident: 1,
        name: 'Aggregate Default Override',
        description: expect.any(String),
        option_value: 'false',
        data_type: 'boolean',
        default_value: 'false',
        valid_value: null,
      });
      expect(byName.get('Default page size')).toMatchObject({ option_value: String(t.config.api.pageSizeDefault), data_type: 'number' });
      expect(byName.get('Maximum page size')).toMatchObject({ option_value: String(t.config.api.pageSizeMax) });
      expect(byName.get('Enable HTTP Basic Authentication')).toMatchObject({ option_value: 'false', data_type: 'boolean' });
      expect(byName.get('Default response format')).toMatchObject({ option_value: 'json' });
      for (const [ident, option] of Object.entries(options)) {
        expect(String(option.ident)).toBe(ident);
        expect(typeof option.option_value).toBe('string');
      }
      expectError((await sam.get('/@apioptions').expect(403)).body, 403, ErrorCode.FORBIDDEN);
    });
  });

  describe('@rules', () => {
    it('lists every rule with its kind, entity, attribute and name, and the fields the LAC SDK prints', async () => {
      const rules = (await readonly.get('/@rules').expect(200)).body as Json[];
      expect(rules).toHaveLength(demoRules.length);
      expect(rules.map((r) => r.ident)).toEqual(demoRules.map((_, i) => i + 1));
      expect(rules.map((r) => r.kind)).toEqual(demoRules.map((r) => r.kind));
      expect(rules[0]).toEqual({
        ident: 1,
        kind: 'sum',
        entity: 'customer',
        attribute: 'balance',
        name: 'sum customer.balance',
        entityName: 'customer',
        columnName: 'balance',
        bestName: 'sum customer.balance',
      });
      expect(rules[1]).toMatchObject({ kind: 'constraint', entity: 'customer', attribute: null, name: 'constraint customer #2' });
      // Never a rule's message or code.
      expect(JSON.stringify(rules)).not.toContain('credit limit');
    });

    it('takes the meta lists’ sysorder and pagesize', async () => {
      const page = (await readonly.get('/@rules?sysorder=(ident:desc)&pagesize=2').expect(200)).body as Json[];
      expect(page.slice(0, 2).map((r) => r.ident)).toEqual([demoRules.length, demoRules.length - 1]);
      expect(page[2]!['@metadata'].next_batch).toContain('offset=2');
      expectError((await readonly.get('/@rules?filter=x').expect(400)).body, 400, ErrorCode.BAD_REQUEST);
      expectError((await sam.get('/@rules').expect(403)).body, 403, ErrorCode.FORBIDDEN);
    });
  });

  describe('@perf', () => {
    it('counts requests per resource since boot, with times, for an admin token', async () => {
      await demo.get('/customer').expect(200);
      await demo.get('/customer?pagesize=1').expect(200);
      await demo.get('/customer/nosuchcustomer').expect(200);
      await demo.get('/Customers?pagesize=1').expect(200);
      await demo.get('/product?filter=nosuch=1').expect(400);
      const [name, value] = await adminHeader(t);
      const res = await t.http().get(`${t.base}/@perf`).set('Host', API_HOST).set(name, value).expect(200);
      expect(res.body).toEqual({ since: expect.any(String), uptimeSeconds: expect.any(Number), resources: expect.any(Array) });
      const byName = new Map((res.body.resources as Json[]).map((r) => [r.resource as string, r]));
      const customer = byName.get('customer')!;
      expect(customer).toMatchObject({ resource_type: 'TableBased', byMethod: { GET: customer.requests } });
      expect(customer.requests).toBeGreaterThanOrEqual(3);
      expect(customer.averageMs).toBeGreaterThanOrEqual(0);
      expect(customer.maxMs).toBeGreaterThanOrEqual(customer.minMs);
      expect(byName.get('Customers')).toMatchObject({ resource_type: 'Custom' });
      expect(byName.get('product')!.errors).toBeGreaterThanOrEqual(1);
      // Only resources' own names: nothing from a URL.
      expect([...byName.keys()].every((n) => !n.includes('nosuch'))).toBe(true);
    });

    it('opens to an auditor too, and refuses API tokens, whatever their roles, and requests without a token', async () => {
      const [name, value] = await adminHeader(t);
      await t
        .http()
        .post('/admin/v1/admins')
        .set(name, value)
        .set('Content-Type', 'application/json')
        .send({ username: 'perf-auditor', password: 'Perf-Auditor-Passw0rd', role: 'auditor' })
        .expect(201);
      const login = await t
        .http()
        .post('/admin/v1/@authentication')
        .send({ username: 'perf-auditor', password: 'Perf-Auditor-Passw0rd' })
        .expect(200);
      await t
        .http()
        .get(`${t.base}/@perf`)
        .set('Host', API_HOST)
        .set('Authorization', `Bearer ${login.body.apikey as string}`)
        .expect(200);
      expectError((await demo.get('/@perf').expect(401)).body, 401, ErrorCode.TOKEN_INVALID);
      expectError((await anonymous('/@perf').expect(401)).body, 401, ErrorCode.NO_TOKEN);
      expectError(
        (await t.http().get(`${t.base}/@perf?x=1`).set('Host', API_HOST).set(name, value).expect(400)).body,
        400,
        ErrorCode.BAD_REQUEST,
      );
    });
  });

  describe('@auth_provider_info/<ident>', () => {
    it("answers the provider's name, settings and login fields, by 1 or its name", async () => {
      for (const ident of ['1', 'default', 'DEFAULT']) {
        const info = (await readonly.get(`/@auth_provider_info/${ident}`).expect(200)).body as Json;
        expect(info).toEqual({
          ident: 1,
          name: 'default',
          kind: 'built-in',
          parameters: [],
          loginFields: [expect.objectContaining({ name: 'username' }), expect.objectContaining({ name: 'password', type: 'password' })],
        });
      }
      expectError((await readonly.get('/@auth_provider_info/2').expect(404)).body, 404, ErrorCode.NOT_FOUND);
      expectError((await anonymous('/@auth_provider_info/1').expect(401)).body, 401, ErrorCode.NO_TOKEN);
      expectError((await readonly.get('/@auth_provider_info/1?x=1').expect(400)).body, 400, ErrorCode.BAD_REQUEST);
    });
  });

  describe('@license', () => {
    it('has a license_expiration LAC clients can print', async () => {
      const license = (await anonymous('/@license').expect(200)).body as Json;
      expect(license).toEqual({ company: expect.any(String), license_type: 'Apache-2.0', license_expiration: 'never' });
    });
  });

  describe('@docs', () => {
    it('documents every new endpoint', async () => {
      const doc = (await readonly.get('/@docs').expect(200)).body as Json;
      for (const path of ['/@resources/{ident}', '/@data_sources', '/@apioptions', '/@rules', '/@perf', '/@auth_provider_info/{ident}']) {
        expect(doc.paths[path]?.get).toBeDefined();
      }
      expect(doc.paths['/@docs'].get.parameters).toEqual([expect.objectContaining({ name: 'format', in: 'query' })]);
    });

    it('answers a valid Swagger 2.0 document of the same API with format=swagger2', async () => {
      const openapi = (await readonly.get('/@docs').expect(200)).body as Json;
      const swagger = (await readonly.get('/@docs?format=swagger2').expect(200)).body as Json;
      expect(swagger.swagger).toBe('2.0');
      expect(swagger).toMatchObject({ host: API_HOST, basePath: t.base, schemes: ['http'], info: openapi.info });
      expect(Object.keys(swagger.paths).sort()).toEqual(Object.keys(openapi.paths).sort());
      expect(Object.keys(swagger.definitions).sort()).toEqual(Object.keys(openapi.components.schemas).sort());
      expect(JSON.stringify(swagger)).not.toContain('#/components/');
      // The validator checks the document against Swagger 2.0's JSON Schema and its own rules (path parameters,
      // one body parameter, required properties that exist...). It dereferences in place: give it a copy.
      await expect(SwaggerParser.validate(structuredClone(swagger) as never)).resolves.toBeDefined();
      const customer = swagger.paths['/customer'];
      expect(customer.post.parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ in: 'body', name: 'body', required: true })]),
      );
    });

    it('refuses another format with 400 / 4000', async () => {
      expectError((await readonly.get('/@docs?format=swagger12').expect(400)).body, 400, ErrorCode.BAD_REQUEST);
    });
  });
});
