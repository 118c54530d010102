import { ErrorCode } from '../../common/error-codes.js';
import { codeSpan } from '../../common/openapi/openapi-types.js';
import { columnOf, resourceOf } from '../../../test/support/resource-shapes.js';
import type { ResourceColumn } from '../../data/resource-registry.js';
import { OpenApiDocs, buildOpenApiDocument, type OpenApiSource } from './openapi-document.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the suite walks a generated JSON document; assertions check its shape
type Json = Record<string, any>;

/** Columns here are NOT NULL unless they say otherwise. */
function column(name: string, kind: ResourceColumn['kind'], extra: Partial<ResourceColumn> = {}): ResourceColumn {
  return columnOf(name, kind, extra.primary, { nullable: false, ...extra });
}

const order = resourceOf('order', [
  column('id', 'integer', { primary: true, generated: true }),
  column('customer', 'string', { length: 30 }),
  column('total', 'decimal', { precision: 19, scale: 4, hasDefault: true }),
  column('paid', 'boolean', { hasDefault: true }),
  column('due', 'date', { nullable: true }),
  column('noted_at', 'datetime', { nullable: true }),
  column('memo', 'string', { nullable: true }),
]);
const slot = resourceOf('slot', [
  column('warehouse', 'string', { primary: true, length: 40 }),
  column('number', 'integer', { primary: true }),
  column('label', 'string', { length: 60, nullable: true }),
]);

function source(overrides: Partial<OpenApiSource> = {}): OpenApiSource {
  return {
    project: 'shop',
    account: 'acme',
    tesseraVersion: '9.9.9',
    resources: [order, slot],
    derived: (r) => new Set(r === order ? ['total'] : []),
    resourcePrefix: 'main',
    permitAuthInUrl: false,
    allowFreeFormFilters: true,
    pageSizeDefault: 20,
    pageSizeMax: 500,
    docsPublic: false,
    ...overrides,
  };
}

const LAC_GET = ['logging', 'debug', 'downloadName', 'deferred', 'inline', 'inlinelimit', 'procrowlimit', 'procinlinelimit', 'chunksize'];

describe('the OpenAPI document', () => {
  const doc = buildOpenApiDocument(source(), 'v2') as Json;
  const schemas = doc.components.schemas;

  it('says what it describes: OpenAPI 3.1, the project as title, the API version and the Tessera version', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'shop', version: 'v2', 'x-tessera-version': '9.9.9' });
    expect(doc.info.description).toContain('main:<table>');
  });

  it('gets its server from the request, and is built once per served version', () => {
    const docs = new OpenApiDocs(source(), ['v1', 'v2']);
    const v1 = docs.for('v1', 'https://api.example.com/rest/acme/shop/v1') as Json;
    expect(Object.keys(v1).slice(0, 3)).toEqual(['openapi', 'info', 'servers']);
    expect(v1.servers).toEqual([{ url: 'https://api.example.com/rest/acme/shop/v1' }]);
    expect(v1.info.version).toBe('v1');
    expect(docs.for('v3', 'x')).toBeUndefined();
  });

  it('types each column, nullable ones as a type list, generated and derived ones read-only', () => {
    const p = schemas.order.properties;
    expect(p['@metadata']).toEqual({ $ref: '#/components/schemas/Metadata' });
    expect(p.id).toMatchObject({ type: 'integer', readOnly: true });
    expect(p.customer).toEqual({ type: 'string', maxLength: 30 });
    expect(p.total).toMatchObject({ type: 'number', readOnly: true, description: expect.stringMatching(/^decimal\(19,4\)\. Exact/) });
    expect(p.paid).toMatchObject({ type: 'boolean' });
    expect(p.due).toEqual({ type: ['string', 'null'], format: 'date', description: 'A day that exists, years 1000 to 9999.' });
    expect(p.noted_at).toMatchObject({ type: ['string', 'null'], format: 'date-time' });
    expect(p.memo).toEqual({ type: ['string', 'null'] });
    expect(schemas.order.additionalProperties).toBe(false);
  });

  it('requires on insert only what has no default, no generator, no rule and no null', () => {
    expect(schemas['order.new']).toMatchObject({ type: 'object', allOf: [{ $ref: '#/components/schemas/order' }], required: ['customer'] });
    expect(schemas['slot.new'].required).toEqual(['warehouse', 'number']);
  });

  it('puts collection and object operations on every resource, with the key as a path parameter', () => {
    expect(Object.keys(doc.paths['/order'])).toEqual(['get', 'post', 'put', 'patch']);
    expect(Object.keys(doc.paths['/slot/{key}'])).toEqual(['parameters', 'get', 'put', 'patch', 'delete']);
    expect(doc.components.parameters['key.order']).toMatchObject({ in: 'path', required: true, schema: { type: 'integer' } });
    expect(doc.components.parameters['key.slot']).toMatchObject({
      schema: { type: 'string' },
      example: 'warehouse~1',
      description: expect.stringContaining('(`warehouse`, `number`), each URL-encoded'),
    });
    expect(doc.paths['/order/{key}'].delete.parameters.map((p: Json) => p.$ref.split('/').pop())).toEqual([
      'checksum',
      'If-Match',
      'txsummary',
      'rulesummary',
      'logging',
      'debug',
      'deferred',
      'inline',
      'inlinelimit',
      'rulelog',
      'ignoredeleted',
    ]);
    const { operationId, summary, ...patch } = doc.paths['/order/{key}'].patch;
    expect({ operationId, summary }).toEqual({ operationId: 'patch_order', summary: 'Update one order (PATCH is PUT)' });
    expect(patch).toEqual({ ...doc.paths['/order/{key}'].put, operationId: undefined, summary: undefined });
    expect(doc.paths['/order'].patch.operationId).toBe('patch_order_list');
    expect(doc.components.parameters.pagesize.schema).toEqual({ type: 'integer', minimum: 1, maximum: 500, default: 20 });
  });

  it('lists every error code once, under the response of its HTTP status', () => {
    const codes = Object.values(ErrorCode).filter((v): v is number => typeof v === 'number');
    expect(schemas.Error.properties.errorCode.enum).toEqual(codes);
    expect(new Set(codes).size).toBe(codes.length);
    const listed = Object.values(doc.components.responses as Record<string, Json>).flatMap(
      (r) => r.content['application/json'].schema.properties.errorCode.enum as number[],
    );
    expect(listed.sort()).toEqual([...codes].sort());
    expect(doc.components.responses.Error429.headers['Retry-After']).toBeDefined();
    expect(doc.components.responses.Error409.headers['Retry-After'].description).toMatch(/4093/);
    // Any operation may be refused before routing: a bad Host or escape (400), a URL over MAX_URL_BYTES (414).
    for (const operation of [doc.paths['/order'].get, doc.paths['/order/{key}'].delete]) {
      expect(operation.responses).toMatchObject({
        400: { $ref: '#/components/responses/Error400' },
        414: { $ref: '#/components/responses/Error414' },
      });
    }
    expect(doc.components.responses.Error503.headers['Retry-After']).toBeDefined();
    expect(doc.paths['/order'].post.responses).toMatchObject({
      201: { content: { 'application/json': { schema: { $ref: '#/components/schemas/WriteResult' } } } },
      422: { $ref: '#/components/responses/Error422' },
    });
  });

  it('drops filter and order when the API forbids free-form queries', () => {
    const strict = buildOpenApiDocument(source({ allowFreeFormFilters: false }), 'v1') as Json;
    expect(Object.keys(strict.components.parameters)).not.toContain('filter');
    expect(Object.keys(strict.components.parameters)).not.toContain('order');
    expect(strict.paths['/order'].get.parameters.map((p: Json) => p.$ref.split('/').pop())).toEqual([
      'sysfilter',
      'sysorder',
      'pagesize',
      'offset',
      'nometa',
      ...LAC_GET,
    ]);
    expect(doc.paths['/order'].get.parameters.map((p: Json) => p.$ref.split('/').pop())).toEqual([
      'filter',
      'sysfilter',
      'order',
      'sysorder',
      'pagesize',
      'offset',
      'nometa',
      ...LAC_GET,
    ]);
  });

  it("documents every parameter of LAC's lists on the operations that take them", () => {
    const names = (operation: Json): string[] => operation.parameters.map((p: Json) => p.$ref.split('/').pop());
    expect(names(doc.paths['/order/{key}'].get)).toEqual(['If-None-Match', 'nometa', 'pagesize', 'offset', ...LAC_GET]);
    for (const write of [doc.paths['/order'].post, doc.paths['/order'].put, doc.paths['/order/{key}'].put]) {
      expect(names(write)).toEqual(
        expect.arrayContaining(['txsummary', 'rulesummary', 'logging', 'debug', 'deferred', 'inline', 'inlinelimit', 'rulelog']),
      );
    }
    for (const name of [...LAC_GET, 'rulesummary', 'rulelog', 'ignoredeleted']) {
      expect(doc.components.parameters[name]).toMatchObject({ name, in: 'query', description: expect.any(String) });
    }
    expect(doc.components.parameters.inlinelimit.schema).toMatchObject({ minimum: -1 });
    expect(doc.components.parameters.sysorder.description).toContain('null_first');
  });

  it('offers ?auth= on GETs only when the project permits keys in URLs', () => {
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['CALiveAPICreator']);
    expect(doc.paths['/order'].get.security).toBeUndefined();
    const permissive = buildOpenApiDocument(source({ permitAuthInUrl: true }), 'v1') as Json;
    expect(permissive.components.securitySchemes.authInUrl).toMatchObject({ type: 'apiKey', in: 'query', name: 'auth' });
    expect(permissive.paths['/order/{key}'].get.security).toEqual([{ CALiveAPICreator: [] }, { authInUrl: [] }]);
    expect(permissive.paths['/order/{key}'].put.security).toBeUndefined();
  });

  it('marks the public endpoints, and @docs too when DOCS_PUBLIC is on', () => {
    for (const path of ['/@authentication', '/@heartbeat', '/@license', '/@login_info']) {
      expect(Object.values(doc.paths[path] as Json)[0].security).toEqual([]);
    }
    expect(doc.paths['/@docs'].get.security).toBeUndefined();
    expect(doc.paths['/@serverinfo'].get.security).toBeUndefined();
    expect((buildOpenApiDocument(source({ docsPublic: true }), 'v1') as Json).paths['/@docs'].get.security).toEqual([]);
  });

  it('writes names into Markdown descriptions as code spans, whatever backticks or markup they hold', () => {
    expect(codeSpan('order_line')).toBe('`order_line`');
    expect(codeSpan('<img src=x>')).toBe('`<img src=x>`');
    expect(codeSpan('a``b')).toBe('```a``b```');
    expect(codeSpan('`edge ')).toBe('`` `edge  ``');
    const markup = resourceOf('<b>x</b>', [column('id', 'integer', { primary: true })]);
    const doc = buildOpenApiDocument(source({ resources: [markup] }), 'v1') as Json;
    expect(doc.tags.at(-1)).toEqual({ name: '<b>x</b>', description: 'The `<b>x</b>` table.' });
  });

  it('gives resources safe component names that do not collide with its own', () => {
    const odd = resourceOf('odd name', [column('id', 'integer', { primary: true })]);
    const clash = resourceOf('Error', [column('id', 'integer', { primary: true })]);
    const named = buildOpenApiDocument(source({ resources: [odd, clash] }), 'v1') as Json;
    expect(named.components.schemas.odd_name).toBeDefined();
    expect(named.paths['/odd%20name/{key}'].parameters).toEqual([{ $ref: '#/components/parameters/key.odd_name' }]);
    expect(named.components.schemas.Error.properties.errorCode).toBeDefined();
    expect(named.components.schemas.Error_2.title).toBe('Error');
    expect(named.paths['/Error/{key}'].get.responses[200].content['application/json'].schema.items).toEqual({
      $ref: '#/components/schemas/Error_2',
    });
  });
});
