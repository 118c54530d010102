import { ErrorCode } from '../src/common/error-codes.js';
import { TESSERA_VERSION } from '../src/config/version.js';
import { API_HOST, apiAs, type Api } from './support/api.js';
import { shelfSlotsProject } from './fixtures/shelf-slots/shelf-slots-project.js';
import { describeEachTargetOnBothAdapters, suiteApp, type TestApp } from './support/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document, walked by path; the assertions on it are its type check
type Json = Record<string, any>;

/** Every `$ref` in the document, with where it sits. */
function refsIn(node: unknown, at = '#'): Array<{ at: string; ref: string }> {
  if (Array.isArray(node)) return node.flatMap((item, i) => refsIn(item, `${at}/${i}`));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === '$ref' && typeof value === 'string' ? [{ at, ref: value }] : refsIn(value, `${at}/${key}`),
  );
}

/** Follows a local JSON pointer (`#/components/schemas/x`); undefined when it leads nowhere. */
function resolve(document: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((token) => decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>(
      (node, token) => (node !== null && typeof node === 'object' && Object.hasOwn(node, token) ? (node as Json)[token] : undefined),
      document,
    );
}

/** The schema behind a `$ref` (or the schema itself). */
function deref(document: Json, schema: Json): Json {
  return schema.$ref ? (resolve(document, schema.$ref) as Json) : schema;
}

/** The keys of an answer that its documented schema does not name (the documentation would be lying). */
function undocumentedKeys(document: Json, schema: Json, body: Json): string[] {
  const properties = deref(document, schema).properties as Json;
  return Object.keys(body).filter((key) => !Object.hasOwn(properties, key));
}

/** LAC's parameters of every GET besides filters, orders and paging (issue 27). */
const LAC_GET = ['logging', 'debug', 'downloadName', 'deferred', 'inline', 'inlinelimit', 'procrowlimit', 'procinlinelimit', 'chunksize'];

describeEachTargetOnBothAdapters('@docs', (target) => {
  describe('with the defaults', () => {
    let t: TestApp;
    let demo: Api;
    let doc: Json;

    suiteApp(target, { project: shelfSlotsProject }, async (app) => {
      t = app;
      demo = await apiAs(t, 'demo');
      doc = (await demo.get('/@docs').expect(200)).body;
    });

    it('needs a token and the meta access of a role', async () => {
      expect((await t.http().get(`${t.base}/@docs`).expect(401)).body.errorCode).toBe(4010);
      const sam = await apiAs(t, 'sam');
      expect((await sam.get('/@docs').expect(403)).body.errorCode).toBe(4030);
    });

    it("is an OpenAPI 3.1 document of this API, with the request's base URL as server", () => {
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.info).toMatchObject({ title: 'demo', version: 'v1', 'x-tessera-version': TESSERA_VERSION });
      expect(doc.servers).toEqual([{ url: `http://${API_HOST}${t.base}` }]);
      expect(doc.components.securitySchemes).toEqual({
        CALiveAPICreator: expect.objectContaining({
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: expect.stringContaining('CALiveAPICreator <apikey>:1'),
        }),
      });
      expect(doc.security).toEqual([{ CALiveAPICreator: [] }]);
    });

    it('resolves every $ref inside the document', () => {
      const refs = refsIn(doc);
      expect(refs.length).toBeGreaterThan(50);
      const broken = refs.filter(({ ref }) => {
        const target = resolve(doc, ref);
        return target === null || typeof target !== 'object';
      });
      expect(broken).toEqual([]);
    });

    it('has paths and a schema for every resource, with every column', async () => {
      const resources = (await demo.get('/@resources').expect(200)).body as Array<{
        name: string;
        resource_type: string;
        readOnly?: boolean;
      }>;
      expect(resources.map((r) => r.name)).toContain('shelf_slot');
      for (const { name } of resources.filter((r) => r.resource_type === 'Custom')) {
        expect(Object.keys(doc.paths[`/${name}`] ?? {})).toEqual(['get', 'post', 'put', 'patch']);
        expect(Object.keys(doc.paths[`/${name}/{key}`] ?? {})).toEqual(['parameters', 'get', 'put', 'patch', 'delete']);
        expect(doc.components.schemas[name]).toBeDefined();
      }
      for (const { name } of resources.filter((r) => r.resource_type === 'TableBased' && !r.readOnly)) {
        expect(Object.keys(doc.paths[`/${name}`] ?? {})).toEqual(['get', 'post', 'put', 'patch']);
        expect(Object.keys(doc.paths[`/${name}/{key}`] ?? {})).toEqual(['parameters', 'get', 'put', 'patch', 'delete']);
        const table = (await demo.get(`/@tables/${name}`).expect(200)).body as { columns: Array<{ name: string }> };
        expect(Object.keys(doc.components.schemas[name].properties).sort()).toEqual(
          ['@metadata', ...table.columns.map((c) => c.name)].sort(),
        );
        expect(doc.components.schemas[`${name}.new`]).toBeDefined();
      }
      // The demo's view: GET alone, of the collection and (it declares a key, name) of one row; nothing to POST.
      const views = resources.filter((r) => r.resource_type === 'TableBased' && r.readOnly).map((r) => r.name);
      expect(views).toEqual(['customer_summary']);
      expect(Object.keys(doc.paths['/customer_summary'] ?? {})).toEqual(['get']);
      expect(Object.keys(doc.paths['/customer_summary/{key}'] ?? {})).toEqual(['parameters', 'get']);
      const view = (await demo.get('/@views/customer_summary').expect(200)).body as { columns: Array<{ name: string }> };
      expect(Object.keys(doc.components.schemas.customer_summary.properties).sort()).toEqual(
        ['@metadata', ...view.columns.map((c) => c.name)].sort(),
      );
      expect(doc.components.schemas['customer_summary.new']).toBeUndefined();
      for (const path of [
        '/@authentication',
        '/@login_info',
        '/@heartbeat',
        '/@license',
        '/@serverinfo',
        '/@resources',
        '/@tables',
        '/@tables/{name}',
        '/@schema/{prefix}',
        '/@count/{resource}',
        '/@views',
        '/@procedures',
        '/@functions',
        '/@docs',
      ]) {
        expect(doc.paths[path]).toBeDefined();
      }
      const operationIds = Object.values<Json>(doc.paths).flatMap((item) =>
        Object.values(item)
          .map((op: Json) => op.operationId)
          .filter(Boolean),
      );
      expect(new Set(operationIds).size).toBe(operationIds.length);
    });

    it('types the columns, with nulls, lengths, exact decimals and read-only generated and derived attributes', () => {
      const { customer, purchaseorder, lineitem, purchaseorder_audit: audit } = doc.components.schemas;
      expect(customer.properties.name).toMatchObject({ type: 'string', maxLength: 30 });
      expect(customer.properties.credit_limit).toMatchObject({
        type: 'number',
        description: expect.stringMatching(/decimal\(19,4\).*exact/i),
      });
      expect(customer.properties.credit_limit.readOnly).toBeUndefined();
      expect(customer.properties.balance).toMatchObject({ type: 'number', readOnly: true }); // a sum rule
      expect(purchaseorder.properties.order_number).toMatchObject({ type: 'integer', readOnly: true }); // generated
      expect(purchaseorder.properties.salesrep_id).toMatchObject({ type: ['integer', 'null'], minimum: -2147483648, maximum: 2147483647 });
      expect(purchaseorder.properties.paid).toMatchObject({ type: 'boolean' });
      expect(lineitem.properties.amount).toMatchObject({ type: ['number', 'null'], readOnly: true }); // a formula
      expect(lineitem.properties.product_price).toMatchObject({ readOnly: true }); // a copy
      expect(audit.properties.audit_time).toMatchObject({ type: ['string', 'null'], format: 'date-time' });
      expect(doc.components.schemas['customer.new'].required).toEqual(['name', 'credit_limit']);
      expect(doc.components.schemas['lineitem.new'].required).toEqual(['order_number', 'product_number', 'qty_ordered']);
    });

    it('documents single and composite keys in the object path', () => {
      expect(doc.components.parameters['key.customer']).toMatchObject({
        in: 'path',
        required: true,
        schema: { type: 'string', maxLength: 30 },
      });
      expect(doc.components.parameters['key.product']).toMatchObject({ schema: { type: 'integer' } });
      expect(doc.components.parameters['key.shelf_slot']).toMatchObject({
        in: 'path',
        schema: { type: 'string' },
        description: expect.stringMatching(/`warehouse`, `aisle`, `slot`.*%7E.*joined with "~"/),
      });
    });

    it('documents the query parameters, the write result and the error envelope with every error code', () => {
      const list = doc.paths['/customer'].get;
      expect(list.parameters.map((p: Json) => deref(doc, p).name)).toEqual([
        'filter',
        'sysfilter',
        'order',
        'sysorder',
        'pagesize',
        'offset',
        'nometa',
        ...LAC_GET,
        // The demo's named filter and order on customer (tableQueries).
        'userfilter',
        'userorder',
      ]);
      expect(doc.paths['/product'].get.parameters.map((p: Json) => deref(doc, p).name)).not.toContain('userfilter');
      for (const name of [...LAC_GET, 'rulesummary', 'ignoredeleted'])
        expect(doc.components.parameters[name].description).toEqual(expect.any(String));
      expect(deref(doc, list.parameters[4]).schema).toMatchObject({ minimum: 1, maximum: 5000, default: 20 });
      expect(doc.paths['/customer'].post.responses['201'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/WriteResult',
      });
      const codes = Object.values(ErrorCode).filter((v) => typeof v === 'number');
      expect(doc.components.schemas.Error.properties.errorCode.enum).toEqual(codes);
      expect(deref(doc, list.responses['400']).description).toMatch(/4001 FILTER_SYNTAX/);
    });

    it('names every attribute the service actually answers with', async () => {
      const schemas = doc.components.schemas;
      const [customer] = (await demo.get('/customer/Alpha%20and%20Sons').expect(200)).body;
      expect(undocumentedKeys(doc, schemas.customer, customer)).toEqual([]);
      expect(undocumentedKeys(doc, schemas.Metadata, customer['@metadata'])).toEqual([]);
      const write = (await demo.post('/shelf_slot', { warehouse: 'w', aisle: 'a', slot: 1 }).expect(201)).body;
      expect(undocumentedKeys(doc, schemas.WriteResult, write)).toEqual([]);
      expect(undocumentedKeys(doc, schemas.TxSummaryEntry.properties['@metadata'], write.txsummary[0]['@metadata'])).toEqual([]);
      const [resource] = (await demo.get('/@resources').expect(200)).body;
      expect(undocumentedKeys(doc, schemas.ResourceSummary, resource)).toEqual([]);
      const table = (await demo.get('/@tables/customer').expect(200)).body;
      expect(undocumentedKeys(doc, schemas.Table, table)).toEqual([]);
      expect(undocumentedKeys(doc, schemas.TableColumn, table.columns[0])).toEqual([]);
      for (const [path, schema] of [
        ['/@serverinfo', 'ServerInfo'],
        ['/@heartbeat', 'Heartbeat'],
        ['/@license', 'License'],
        ['/@login_info', 'LoginInfo'],
      ] as const) {
        expect(undocumentedKeys(doc, schemas[schema], (await demo.get(path).expect(200)).body)).toEqual([]);
      }
      const error = (await demo.get('/customer?filter=nope').expect(400)).body;
      expect(undocumentedKeys(doc, schemas.Error, error)).toEqual([]);
    });
  });

  describe('with DOCS_PUBLIC, PERMIT_AUTH_IN_URL and TRUST_PROXY on, free-form filters off', () => {
    let t: TestApp;

    suiteApp(
      target,
      {
        env: { DOCS_PUBLIC: 'true', PERMIT_AUTH_IN_URL: 'true', TRUST_PROXY: 'true', ALLOW_FREE_FORM_FILTERS: 'false' },
      },
      (app) => {
        t = app;
      },
    );

    it('answers without a token, and only @docs does', async () => {
      const res = await t
        .http()
        .get(`${t.base}/@docs`)
        .set('X-Forwarded-Proto', 'https')
        .set('X-Forwarded-Host', 'api.example.com')
        .expect(200);
      expect(res.body.servers).toEqual([{ url: `https://api.example.com${t.base}` }]);
      expect(res.body.paths['/@docs'].get.security).toEqual([]);
      for (const path of ['/@resources', '/@tables', '/customer', '/@serverinfo']) {
        expect((await t.http().get(`${t.base}${path}`).expect(401)).body.errorCode).toBe(4010);
      }
    });

    it('leaves out filter and order, and documents ?auth= for GETs', async () => {
      const doc = (await t.http().get(`${t.base}/@docs`).expect(200)).body as Json;
      expect(Object.keys(doc.components.parameters)).not.toEqual(expect.arrayContaining(['filter']));
      expect(doc.components.parameters.order).toBeUndefined();
      expect(doc.paths['/customer'].get.parameters.map((p: Json) => p.$ref)).toEqual(
        ['sysfilter', 'sysorder', 'pagesize', 'offset', 'nometa', ...LAC_GET].map((name) => `#/components/parameters/${name}`),
      );
      expect(doc.components.securitySchemes.authInUrl).toMatchObject({ type: 'apiKey', in: 'query', name: 'auth' });
      expect(doc.paths['/customer'].get.security).toEqual([{ CALiveAPICreator: [] }, { authInUrl: [] }]);
      expect(doc.paths['/customer'].post.security).toBeUndefined();
      expect(refsIn(doc).filter(({ ref }) => resolve(doc, ref) === undefined)).toEqual([]);
    });
  });
});
