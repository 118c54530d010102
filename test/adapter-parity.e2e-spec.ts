import { connect, type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { loginAs } from './support/auth.js';
import { capturedLog, type CapturedLog } from './support/captured-log.js';
import { rawRequest, type RawResponse } from './support/raw-http.js';
import { startTestApp, testTargets, type TestApp, type TestTarget } from './support/test-app.js';

const B = '/rest/default/demo/v1';
const HOST = 'Host: tessera.test\r\nConnection: close\r\n';

interface Input {
  name: string;
  /** The bytes sent; `{key}` stands for a demo token. */
  request: string | Buffer;
  status: number;
  /** The envelope's errorCode; undefined: not an error (its body is compared between adapters instead). */
  errorCode?: number;
  message?: RegExp;
}

const gzipped = gzipSync('{"username":"demo","password":"Password1"}');
const BOM = '\ufeff';

/** A POST of a JSON text; Content-Length counts its UTF-8 bytes. */
function jsonPost(path: string, text: string, headers = HOST): string {
  return `POST ${B}/${path} HTTP/1.1\r\n${headers}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
}

/** A POST of JSON bytes exactly as given (some not UTF-8); Content-Length counts them. */
function bytesPost(path: string, parts: Array<string | number[]>, headers = HOST): Buffer {
  const body = Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));
  return Buffer.concat([
    Buffer.from(`POST ${B}/${path} HTTP/1.1\r\n${headers}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`),
    body,
  ]);
}

/** Byte sequences that are not UTF-8, inside a JSON string (decoders put U+FFFD in their place). */
const NOT_UTF8: Array<[string, number[]]> = [
  ['a byte UTF-8 never uses (0xFF)', [0xff]],
  ['an overlong encoding of "/" (0xC0 0xAF)', [0xc0, 0xaf]],
  ['a surrogate encoded as UTF-8 (0xED 0xA0 0x80)', [0xed, 0xa0, 0x80]],
  ['a three-byte sequence cut short (0xE2 0x82)', [0xe2, 0x82]],
  ['a continuation byte alone (0x80)', [0x80]],
];

const INPUTS: Input[] = [
  ...NOT_UTF8.map(([what, bytes]): Input => ({
    name: `a JSON body with ${what}: 400, not U+FFFD`,
    request: bytesPost('@authentication', ['{"apikey":"a', bytes, 'b"}']),
    status: 400,
    errorCode: 4000,
    message: /not valid UTF-8/,
  })),
  {
    name: 'a JSON body with four-byte UTF-8 (an emoji) is read',
    request: jsonPost('@authentication', '{"apikey":"no-such-key \u{1F600}"}'),
    status: 401,
    errorCode: 4011,
  },
  // Both reach Tessera's own check of the key (customer names have at most 30 characters).
  {
    name: 'a key longer than 100 characters (Fastify: 414 FST_ERR_MAX_PARAM_LENGTH)',
    request: `GET ${B}/customer/${'k'.repeat(150)} HTTP/1.1\r\n${HOST}Authorization: Bearer {key}\r\n\r\n`,
    status: 400,
    errorCode: 4000,
    message: /longer than 30/,
  },
  {
    name: 'a URL of exactly MAX_URL_BYTES, nearly all key',
    request: `GET ${B}/customer/${'k'.repeat(8192 - `${B}/customer/`.length)} HTTP/1.1\r\n${HOST}Authorization: Bearer {key}\r\n\r\n`,
    status: 400,
    errorCode: 4000,
    message: /longer than 30/,
  },
  {
    name: 'a URL one byte over MAX_URL_BYTES',
    request: `GET ${B}/customer/${'k'.repeat(8193 - `${B}/customer/`.length)} HTTP/1.1\r\n${HOST}Authorization: Bearer {key}\r\n\r\n`,
    status: 414,
    errorCode: 4140,
  },
  {
    name: 'a 100 KB query string (Express: 431, empty body, connection reset)',
    request: `GET ${B}/customer?filter=${'x'.repeat(100 * 1024)} HTTP/1.1\r\n${HOST}\r\n`,
    status: 414,
    errorCode: 4140,
  },
  { name: 'a 20 KB path', request: `GET /${'p'.repeat(20 * 1024)} HTTP/1.1\r\n${HOST}\r\n`, status: 414, errorCode: 4140 },
  {
    name: 'a 100 KB header after a short URL',
    request: `GET ${B}/@heartbeat HTTP/1.1\r\n${HOST}Cookie: c=${'x'.repeat(100 * 1024)}\r\n\r\n`,
    status: 400,
    errorCode: 4000,
  },
  {
    name: '%ff in a key (Fastify: FST_ERR_BAD_URL)',
    request: `GET ${B}/customer/%ff HTTP/1.1\r\n${HOST}Authorization: Bearer {key}\r\n\r\n`,
    status: 400,
    errorCode: 4000,
  },
  {
    name: 'a lone % in a key',
    request: `GET ${B}/customer/% HTTP/1.1\r\n${HOST}Authorization: Bearer {key}\r\n\r\n`,
    status: 400,
    errorCode: 4000,
  },
  { name: '%ff outside any route', request: `GET /%ff HTTP/1.1\r\n${HOST}\r\n`, status: 400, errorCode: 4000 },
  {
    name: '%ff in the query string',
    request: `GET ${B}/customer?filter=%ff HTTP/1.1\r\n${HOST}Authorization: Bearer {key}\r\n\r\n`,
    status: 400,
    errorCode: 4000,
  },
  {
    name: 'an encoded slash in a key',
    request: `GET ${B}/customer/a%2Fb HTTP/1.1\r\n${HOST}Authorization: Bearer {key}\r\n\r\n`,
    status: 200,
  },
  { name: 'a method Node cannot parse', request: `FOO ${B}/@heartbeat HTTP/1.1\r\n${HOST}\r\n`, status: 400, errorCode: 4000 },
  {
    name: 'a method no route serves (PROPFIND)',
    request: `PROPFIND ${B}/customer HTTP/1.1\r\n${HOST}Authorization: Bearer {key}\r\n\r\n`,
    status: 404,
    errorCode: 4040,
  },
  {
    name: 'PATCH on a resource (LAC: as PUT, which needs a checksum)',
    request: `PATCH ${B}/customer/1 HTTP/1.1\r\n${HOST}Authorization: Bearer {key}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
    status: 400,
    errorCode: 4004,
  },
  { name: 'TRACE', request: `TRACE ${B}/@heartbeat HTTP/1.1\r\n${HOST}\r\n`, status: 404, errorCode: 4040 },
  {
    name: 'CONNECT (Node: connection closed without an answer)',
    request: `CONNECT tessera.test:443 HTTP/1.1\r\n${HOST}\r\n`,
    status: 404,
    errorCode: 4040,
  },
  { name: 'OPTIONS on a resource', request: `OPTIONS ${B}/customer HTTP/1.1\r\n${HOST}\r\n`, status: 404, errorCode: 4040 },
  { name: 'OPTIONS *', request: `OPTIONS * HTTP/1.1\r\n${HOST}\r\n`, status: 400, errorCode: 4000 },
  { name: 'HEAD of @heartbeat', request: `HEAD ${B}/@heartbeat HTTP/1.1\r\n${HOST}\r\n`, status: 200 },
  { name: 'HEAD of a missing endpoint', request: `HEAD /nothing-here HTTP/1.1\r\n${HOST}\r\n`, status: 404 },
  {
    name: 'HEAD with a URL over MAX_URL_BYTES (headers, no body)',
    request: `HEAD /${'x'.repeat(9000)} HTTP/1.1\r\n${HOST}\r\n`,
    status: 414,
  },
  { name: 'HEAD with a malformed escape', request: `HEAD ${B}/@heartbeat?x=%ff HTTP/1.1\r\n${HOST}\r\n`, status: 400 },
  {
    name: 'an absolute-form target naming another host',
    request: `GET http://evil.example${B}/@heartbeat HTTP/1.1\r\n${HOST}\r\n`,
    status: 400,
    errorCode: 4000,
  },
  {
    name: 'an HTTP/1.1 request without Host (Node: empty 400)',
    request: `GET ${B}/@heartbeat HTTP/1.1\r\nConnection: close\r\n\r\n`,
    status: 400,
    errorCode: 4000,
  },
  { name: 'an HTTP/1.0 request without Host', request: `GET ${B}/@heartbeat HTTP/1.0\r\n\r\n`, status: 200 },
  {
    name: 'an HTTP/1.0 request asking to keep the connection',
    request: `GET ${B}/@heartbeat HTTP/1.0\r\nConnection: keep-alive\r\n\r\n`,
    status: 200,
  },
  {
    name: 'a header line without a colon',
    request: `GET ${B}/@heartbeat HTTP/1.1\r\n${HOST}Broken header\r\n\r\n`,
    status: 400,
    errorCode: 4000,
  },
  {
    name: 'two Content-Length values',
    request: `POST ${B}/@authentication HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
    status: 400,
    errorCode: 4000,
  },
  { name: 'an HTTP/2 preface', request: 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', status: 400, errorCode: 4000 },
  {
    name: 'Expect other than 100-continue (Node: empty 417)',
    request: `POST ${B}/@authentication HTTP/1.1\r\n${HOST}Expect: teapot\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
    status: 400,
    errorCode: 4000,
  },
  {
    name: 'malformed JSON',
    request: `POST ${B}/@authentication HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nContent-Length: 6\r\n\r\n{"a": `,
    status: 400,
    errorCode: 4000,
  },
  {
    name: 'malformed JSON to a missing endpoint',
    request: jsonPost('no-such-thing', '{"a": '),
    status: 400,
    errorCode: 4000,
    message: /not valid JSON/,
  },
  {
    name: 'malformed JSON to a method no route serves',
    request: `PATCH ${B}/customer HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nContent-Length: 1\r\n\r\n{`,
    status: 400,
    errorCode: 4000,
    message: /not valid JSON/,
  },
  // Response formats (README, "CSV and XML"): the same bytes and headers from both adapters.
  {
    name: 'a GET answered as CSV, its next batch in a Link header',
    request: `GET ${B}/customer?pagesize=2 HTTP/1.1\r\n${HOST}Authorization: Bearer {key}\r\nAccept: text/csv\r\n\r\n`,
    status: 200,
  },
  {
    // nometa: each app keeps its own checksum secret.
    name: 'a GET answered as XML',
    request: `GET ${B}/Customers?pagesize=2&nometa=true HTTP/1.1\r\n${HOST}Authorization: Bearer {key}\r\nAccept: application/xml\r\n\r\n`,
    status: 200,
  },
  {
    name: 'a GET whose Accept allows no format on offer',
    request: `GET ${B}/customer HTTP/1.1\r\n${HOST}Authorization: Bearer {key}\r\nAccept: text/html\r\n\r\n`,
    status: 406,
    errorCode: 4060,
  },
  {
    name: 'an empty JSON body',
    request: `POST ${B}/@authentication HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nContent-Length: 0\r\n\r\n`,
    status: 400,
    errorCode: 4000,
  },
  {
    name: 'a body that is not JSON',
    request: `POST ${B}/@authentication HTTP/1.1\r\n${HOST}Content-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi`,
    status: 415,
    errorCode: 4150,
  },
  {
    name: 'a charset other than UTF-8 (Express: 415, Fastify: parsed)',
    request: `POST ${B}/@authentication HTTP/1.1\r\n${HOST}Content-Type: application/json; charset=latin1\r\nContent-Length: 2\r\n\r\n{}`,
    status: 415,
    errorCode: 4150,
  },
  {
    name: 'a gzip body (Express: inflated, Fastify: not)',
    request: Buffer.concat([
      Buffer.from(
        `POST ${B}/@authentication HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${gzipped.length}\r\n\r\n`,
      ),
      gzipped,
    ]),
    status: 415,
    errorCode: 4150,
  },
  // RFC 8259 §8.1: a parser may ignore one; Express's body reader dropped it, Fastify's refused it.
  {
    name: 'a UTF-8 byte-order mark before the JSON (Fastify: 400)',
    request: jsonPost('@authentication', `${BOM}{"apikey":"no-such-key"}`),
    status: 401,
    errorCode: 4011,
  },
  {
    name: 'two byte-order marks',
    request: jsonPost('@authentication', `${BOM}${BOM}{"apikey":"no-such-key"}`),
    status: 400,
    errorCode: 4000,
    message: /not valid JSON/,
  },
  { name: 'a byte-order mark and nothing else', request: jsonPost('@authentication', BOM), status: 400, errorCode: 4000 },
  {
    name: 'a byte-order mark after the first byte',
    request: jsonPost('@authentication', ` ${BOM}{"apikey":"no-such-key"}`),
    status: 400,
    errorCode: 4000,
    message: /not valid JSON/,
  },
  {
    name: 'upper-case fixed segments (Fastify: 404)',
    request: `GET /REST/default/demo/v1/@heartbeat HTTP/1.1\r\n${HOST}\r\n`,
    status: 200,
  },
];

/** Headers that may differ between two answers to the same request: the date and the request id. */
function comparableHeaders(res: RawResponse): Record<string, string> {
  const { date: _date, 'x-request-id': _requestId, ...rest } = res.headers;
  return rest;
}

interface Conditional {
  name: string;
  method?: 'GET' | 'HEAD';
  path: string;
  /** The If-None-Match value, given the ETag a plain GET of `customer/Acme%20Anchors` answers on this adapter. */
  ifNoneMatch: (etag: string) => string;
  status: 200 | 304;
  /** The ETag the answer carries: the current one, or none. */
  etag: boolean;
}

const ACME = 'customer/Acme%20Anchors';
const OTHER_TAG = '"R:0000000000000000"';
const CONDITIONALS: Conditional[] = [
  { name: 'the current ETag', path: ACME, ifNoneMatch: (etag) => etag, status: 304, etag: true },
  { name: 'the current ETag, weak', path: ACME, ifNoneMatch: (etag) => `W/${etag}`, status: 304, etag: true },
  { name: 'a list holding the current ETag', path: ACME, ifNoneMatch: (etag) => `${OTHER_TAG}, W/"x",${etag}`, status: 304, etag: true },
  { name: '* on an object that exists (Express: 304, Fastify: 200)', path: ACME, ifNoneMatch: () => '*', status: 304, etag: true },
  { name: 'the current ETag on HEAD', method: 'HEAD', path: ACME, ifNoneMatch: (etag) => etag, status: 304, etag: true },
  { name: 'another ETag', path: ACME, ifNoneMatch: () => OTHER_TAG, status: 200, etag: true },
  {
    name: 'the checksum without quotes (not an entity tag)',
    path: ACME,
    ifNoneMatch: (etag) => etag.slice(1, -1),
    status: 200,
    etag: true,
  },
  { name: 'a prefix of the current ETag', path: ACME, ifNoneMatch: (etag) => `${etag.slice(0, -2)}"`, status: 200, etag: true },
  { name: '* on a missing object (an empty array, no ETag)', path: 'customer/Nobody', ifNoneMatch: () => '*', status: 200, etag: false },
  { name: '* on a collection (no ETag: not conditional)', path: 'customer?pagesize=2', ifNoneMatch: () => '*', status: 200, etag: false },
  { name: '* on @heartbeat', path: '@heartbeat', ifNoneMatch: () => '*', status: 200, etag: false },
];

interface Pipeline {
  name: string;
  /** Requests sent at once on one keep-alive connection; `{key}` stands for a demo token. */
  requests: string[];
  /** Each answer's status and whether it keeps the connection; no answer follows one that closes it. */
  answers: Array<[status: number, keepsConnection: boolean]>;
}

const KEEP = 'Host: tessera.test\r\n';
const HEARTBEAT = `GET ${B}/@heartbeat HTTP/1.1\r\n${KEEP}Connection: close\r\n\r\n`;
const AUTH = 'Authorization: Bearer {key}\r\n';
const PIPELINES: Pipeline[] = [
  {
    name: 'malformed JSON, read in full (Fastify: closed, the GET dropped)',
    requests: [jsonPost('customer', '{', `${KEEP}${AUTH}`), HEARTBEAT],
    answers: [
      [400, true],
      [200, false],
    ],
  },
  {
    name: 'malformed JSON before the token is checked',
    requests: [jsonPost('customer', '{"name":', KEEP), HEARTBEAT],
    answers: [
      [400, true],
      [200, false],
    ],
  },
  {
    name: 'malformed JSON to a method no route serves',
    requests: [`PATCH ${B}/customer HTTP/1.1\r\n${KEEP}Content-Type: application/json\r\nContent-Length: 1\r\n\r\n{`, HEARTBEAT],
    answers: [
      [400, true],
      [200, false],
    ],
  },
  {
    name: 'a polluting key',
    requests: [jsonPost('customer', '{"__proto__":{}}', `${KEEP}${AUTH}`), HEARTBEAT],
    answers: [
      [400, true],
      [200, false],
    ],
  },
  {
    name: 'a NUL character',
    requests: [jsonPost('customer', '{"name":"a\\u0000"}', `${KEEP}${AUTH}`), HEARTBEAT],
    answers: [
      [400, true],
      [200, false],
    ],
  },
  {
    name: 'two byte-order marks',
    requests: [jsonPost('@authentication', `${BOM}${BOM}{}`, KEEP), HEARTBEAT],
    answers: [
      [400, true],
      [200, false],
    ],
  },
  {
    name: 'a body that is not JSON',
    requests: [`POST ${B}/customer HTTP/1.1\r\n${KEEP}Content-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello`, HEARTBEAT],
    answers: [
      [415, true],
      [200, false],
    ],
  },
  {
    name: 'a well-formed body',
    requests: [jsonPost('@authentication', '{"apikey":"no-such-key"}', KEEP), HEARTBEAT],
    answers: [
      [401, true],
      [200, false],
    ],
  },
  {
    name: 'a body announced over BODY_LIMIT_BYTES (Express: read it all, then 413 keeping the connection)',
    requests: [`POST ${B}/customer HTTP/1.1\r\n${KEEP}${AUTH}Content-Type: application/json\r\nContent-Length: 2000000\r\n\r\n{`],
    answers: [[413, false]],
  },
  {
    name: 'a chunked body that outgrows BODY_LIMIT_BYTES (Express: 413 keeping the connection)',
    requests: [
      `POST ${B}/customer HTTP/1.1\r\n${KEEP}${AUTH}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n100000\r\n${' '.repeat(0x100000)}\r\n10\r\n${' '.repeat(16)}\r\n0\r\n\r\n`,
      HEARTBEAT,
    ],
    answers: [[413, false]],
  },
];

/** Sends the requests on one connection and reads the answers until the server closes it or `count` have come. */
async function pipelined(
  port: number,
  bytes: string,
  count: number,
): Promise<Array<{ status: number; connection?: string; body: string }>> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  socket.on('error', () => undefined);
  socket.write(bytes);
  const until = Date.now() + 3000;
  while (!socket.closed && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  socket.destroy();
  return received
    .split(/(?=HTTP\/1\.1 \d{3} )/)
    .filter(Boolean)
    .slice(0, count + 1)
    .map((text) => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      return { status: Number(head.slice(9, 12)), connection: /\r\nconnection: *([^\r]*)/i.exec(head)?.[1]?.toLowerCase(), body };
    });
}

function withKey(request: string | Buffer, key: string): string | Buffer {
  return typeof request === 'string' ? request.replace('{key}', key) : request;
}

/** Each database once, with an app on each adapter side by side. */
const databases = [...new Set(testTargets({ adapters: 'both' }).map((t) => t.database))];

describe.each(databases)('both adapters answer alike, in the error envelope [%s]', (database) => {
  const apps: Record<string, { t: TestApp; port: number; key: string }> = {};

  beforeAll(async () => {
    for (const adapter of ['express', 'fastify'] as const) {
      const target: TestTarget = { name: `${database}/${adapter}`, database, adapter };
      const t = await startTestApp(target);
      await t.app.listen(0, '127.0.0.1');
      apps[adapter] = { t, port: (t.app.getHttpServer().address() as AddressInfo).port, key: await loginAs(t, 'demo', 'Password1') };
    }
  });
  afterAll(async () => {
    for (const app of Object.values(apps)) await app.t.close();
  });

  it.each(INPUTS.map((input) => [input.name, input] as const))('%s', async (_name, input) => {
    const answers: Record<string, RawResponse> = {};
    for (const [adapter, app] of Object.entries(apps)) {
      const res = await rawRequest(app.port, withKey(input.request, app.key));
      expect({ adapter, status: res.status }).toEqual({ adapter, status: input.status });
      // No framework ETag (Express added a weak one to every answer, errors included).
      expect({ adapter, etag: res.headers.etag }).toEqual({ adapter, etag: undefined });
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      if (input.errorCode !== undefined) {
        expect(res.json).toEqual({ statusCode: input.status, errorCode: input.errorCode, errorMessage: expect.any(String) });
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        if (input.message) expect((res.json as { errorMessage: string }).errorMessage).toMatch(input.message);
        // Never an echo of what was sent (Fastify's own answers quote the URL).
        expect(res.body.length).toBeLessThan(300);
      }
      answers[adapter] = res;
    }
    expect(answers.express!.body).toEqual(answers.fastify!.body);
    expect(comparableHeaders(answers.express!)).toEqual(comparableHeaders(answers.fastify!));
  });

  it.each(CONDITIONALS.map((c) => [c.name, c] as const))('If-None-Match: %s', async (_name, c) => {
    const answers: Record<string, RawResponse> = {};
    for (const [adapter, app] of Object.entries(apps)) {
      const auth = `Authorization: Bearer ${app.key}\r\n`;
      const plain = await rawRequest(app.port, `GET ${B}/${ACME} HTTP/1.1\r\n${HOST}${auth}\r\n`);
      const etag = plain.headers.etag!;
      expect(etag).toMatch(/^"R:[0-9a-f]{16}"$/);
      const method = c.method ?? 'GET';
      const res = await rawRequest(
        app.port,
        `${method} ${B}/${c.path} HTTP/1.1\r\n${HOST}${auth}If-None-Match: ${c.ifNoneMatch(etag)}\r\n\r\n`,
      );
      expect({ adapter, status: res.status, etag: res.headers.etag }).toEqual({
        adapter,
        status: c.status,
        etag: c.etag ? etag : undefined,
      });
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      if (c.status === 304) {
        expect({ adapter, body: res.body, type: res.headers['content-type'], length: res.headers['content-length'] }).toEqual({
          adapter,
          body: '',
          type: undefined,
          length: undefined,
        });
      } else if (method === 'GET') {
        expect(res.json).toEqual(c.path === '@heartbeat' ? { status: 'OK' } : expect.any(Array));
        if (c.path === ACME) expect(res.body).toBe(plain.body);
      }
      answers[adapter] = res;
    }
    const { etag: _e, ...express } = comparableHeaders(answers.express!);
    const { etag: _f, ...fastify } = comparableHeaders(answers.fastify!);
    expect(express).toEqual(fastify);
  });

  it('answers 200 with the new ETag to If-None-Match holding the ETag the object had before a change', async () => {
    for (const [adapter, app] of Object.entries(apps)) {
      const auth = ['Authorization', `Bearer ${app.key}`] as const;
      const path = `${B}/customer/${encodeURIComponent(`Changing ${adapter}`)}`;
      const created = await app.t
        .http()
        .post(`${B}/customer`)
        .set(...auth)
        .send({ name: `Changing ${adapter}`, credit_limit: 10 });
      expect(created.status).toBe(201);
      const before = (
        await app.t
          .http()
          .get(path)
          .set(...auth)
      ).headers.etag as string;
      expect(
        (
          await app.t
            .http()
            .get(path)
            .set(...auth)
            .set('If-None-Match', before)
        ).status,
      ).toBe(304);
      const checksum = before.slice(1, -1);
      const updated = await app.t
        .http()
        .put(path)
        .set(...auth)
        .send({ '@metadata': { checksum }, credit_limit: 20 });
      expect(updated.status).toBe(200);
      const after = await app.t
        .http()
        .get(path)
        .set(...auth)
        .set('If-None-Match', before);
      expect({ adapter, status: after.status, credit: after.body[0]?.credit_limit }).toEqual({ adapter, status: 200, credit: 20 });
      expect(after.headers.etag).not.toBe(before);
      expect(
        (
          await app.t
            .http()
            .get(path)
            .set(...auth)
            .set('If-None-Match', after.headers.etag as string)
        ).status,
      ).toBe(304);
    }
  });

  it.each(PIPELINES.map((p) => [p.name, p] as const))('pipelined: %s', async (_name, p) => {
    for (const [adapter, app] of Object.entries(apps)) {
      const answers = await pipelined(app.port, p.requests.map((r) => r.replace('{key}', app.key)).join(''), p.answers.length);
      expect({ adapter, answers: answers.map((a) => [a.status, a.connection === 'keep-alive']) }).toEqual({ adapter, answers: p.answers });
      expect(answers.at(-1)!.connection).toBe('close');
    }
  });

  it('bounds requests and keeps idle connections the same way on both, by default', async () => {
    for (const [adapter, app] of Object.entries(apps)) {
      const { headersTimeout, requestTimeout, keepAliveTimeout, timeout } = app.t.app.getHttpServer() as Record<string, unknown>;
      expect({ adapter, headersTimeout, requestTimeout, keepAliveTimeout, timeout }).toEqual({
        adapter,
        headersTimeout: 10_000,
        requestTimeout: 30_000,
        keepAliveTimeout: 65_000,
        timeout: 0,
      });
      const res = await rawRequest(app.port, `GET ${B}/@heartbeat HTTP/1.1\r\nHost: tessera.test\r\n\r\n`);
      expect({ adapter, connection: res.headers.connection, keepAlive: res.headers['keep-alive'] }).toEqual({
        adapter,
        connection: 'keep-alive',
        keepAlive: 'timeout=65',
      });
    }
  });

  it('stores a JSON body that starts with a byte-order mark, on both adapters', async () => {
    for (const [adapter, app] of Object.entries(apps)) {
      const name = `BOM ${adapter}`;
      const created = await rawRequest(
        app.port,
        jsonPost('customer', `${BOM}{"name":"${name}","credit_limit":10}`, `${HOST}Authorization: Bearer ${app.key}\r\n`),
      );
      expect({ adapter, status: created.status }).toEqual({ adapter, status: 201 });
      const read = await app.t
        .http()
        .get(`${B}/customer/${encodeURIComponent(name)}`)
        .set('Authorization', `Bearer ${app.key}`);
      expect(read.body).toEqual([expect.objectContaining({ name, credit_limit: 10 })]);
    }
  });

  it('refuses a row whose JSON is not UTF-8 and stores nothing, on both adapters', async () => {
    for (const [adapter, app] of Object.entries(apps)) {
      const name = `bad ${adapter} `;
      const sent = await rawRequest(
        app.port,
        bytesPost('customer', [`{"name":"${name}`, [0xff], '","credit_limit":10}'], `${HOST}Authorization: Bearer ${app.key}\r\n`),
      );
      expect({ adapter, status: sent.status, json: sent.json }).toEqual({
        adapter,
        status: 400,
        json: { statusCode: 400, errorCode: 4000, errorMessage: 'The request body is not valid UTF-8.' },
      });
      const read = await app.t
        .http()
        .get(`${B}/customer/${encodeURIComponent(`${name}\ufffd`)}`)
        .set('Authorization', `Bearer ${app.key}`);
      expect({ adapter, stored: read.body }).toEqual({ adapter, stored: [] });
    }
  });

  it('keeps a keep-alive connection usable after a request refused before routing', async () => {
    for (const [adapter, app] of Object.entries(apps)) {
      const socket = connect(app.port, '127.0.0.1');
      let received = '';
      socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
      const keepAlive = 'Host: tessera.test\r\n';
      socket.write(
        `GET ${B}/@heartbeat?x=%ff HTTP/1.1\r\n${keepAlive}\r\nGET /${'x'.repeat(9000)} HTTP/1.1\r\n${keepAlive}\r\nGET ${B}/@heartbeat HTTP/1.1\r\n${keepAlive}\r\n`,
      );
      const until = Date.now() + 5000;
      while ((received.match(/HTTP\/1\.1 \d{3}/g) ?? []).length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      socket.destroy();
      expect({ adapter, statuses: received.match(/HTTP\/1\.1 (\d{3})/g) }).toEqual({
        adapter,
        statuses: ['HTTP/1.1 400', 'HTTP/1.1 414', 'HTTP/1.1 200'],
      });
      expect(received).toContain('{"status":"OK"}');
    }
  });
});

describe.each(databases)("MAX_URL_BYTES set above Node's 16 KiB header limit [%s]", (database) => {
  const ports: Record<string, number> = {};
  const apps: TestApp[] = [];

  beforeAll(async () => {
    for (const adapter of ['express', 'fastify'] as const) {
      const t = await startTestApp({ name: `${database}/${adapter}`, database, adapter }, { env: { MAX_URL_BYTES: '32768' } });
      apps.push(t);
      await t.app.listen(0, '127.0.0.1');
      ports[adapter] = (t.app.getHttpServer().address() as AddressInfo).port;
    }
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  const urlOf = (bytes: number) => `${B}/customer?filter=${'x'.repeat(bytes - `${B}/customer?filter=`.length)}`;

  it('serves a 32 KiB URL on both adapters, and refuses one byte more with 414 / 4140', async () => {
    for (const [adapter, port] of Object.entries(ports)) {
      const t = apps.find((a) => a.config.http.adapter === adapter)!;
      const ok = await rawRequest(
        port,
        `GET ${urlOf(32768)} HTTP/1.1\r\n${HOST}Authorization: Bearer ${await loginAs(t, 'demo', 'Password1')}\r\n\r\n`,
      );
      // The filter reached Tessera's own limit (4 KiB) rather than any HTTP one.
      expect({ adapter, status: ok.status, errorCode: (ok.json as { errorCode: number }).errorCode }).toEqual({
        adapter,
        status: 400,
        errorCode: 4001,
      });
      expect((ok.json as { errorMessage: string }).errorMessage).toMatch(/filter/i);
      const over = await rawRequest(port, `GET ${urlOf(32769)} HTTP/1.1\r\n${HOST}\r\n`);
      expect({ adapter, status: over.status, body: over.json }).toEqual({
        adapter,
        status: 414,
        body: { statusCode: 414, errorCode: 4140, errorMessage: 'The URL is longer than 32768 bytes.' },
      });
    }
  });
});

/** Requests that stop arriving partway. */
const STALLED: Array<{ name: string; bytes: string }> = [
  { name: 'a connection that sends nothing', bytes: '' },
  { name: 'a request line that never ends', bytes: `GET ${B}/@heart` },
  { name: 'headers that never end', bytes: `GET ${B}/@heartbeat HTTP/1.1\r\nHost: tessera.test\r\n` },
  {
    name: 'a body shorter than its Content-Length',
    bytes: `POST ${B}/@authentication HTTP/1.1\r\nHost: tessera.test\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"username":`,
  },
  {
    name: 'a chunked body without its last chunk',
    bytes: `POST ${B}/@authentication HTTP/1.1\r\nHost: tessera.test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{"\r\n`,
  },
];

/** Sends bytes and waits for the server to close the connection; what it answered, and when. */
async function untilClosed(port: number, bytes: string, limitMs: number): Promise<{ answer?: RawResponse; afterMs: number }> {
  const started = Date.now();
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString('utf8')));
  socket.on('error', () => undefined);
  if (bytes !== '') socket.write(bytes);
  while (!socket.closed && Date.now() - started < limitMs) await new Promise((r) => setTimeout(r, 20));
  // Read before destroy(), which closes the socket itself.
  const afterMs = socket.closed ? Date.now() - started : Infinity;
  socket.destroy();
  if (received === '') return { afterMs };
  const [head = '', body = ''] = received.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { answer: { status: Number(statusLine!.slice(9, 12)), headers, body, json: JSON.parse(body) }, afterMs };
}

describe.each(databases)('the same timeouts on both adapters [%s]', (database) => {
  const ports: Record<string, number> = {};
  const apps: TestApp[] = [];
  const logs: Record<string, CapturedLog> = {};
  /** What was logged as an error (level 50 and up) since the last call. */
  const errorsLogged = (adapter: string) => {
    const errors = logs[adapter]!.records()
      .filter((r) => (r.level as number) >= 50)
      .map((r) => r.msg);
    logs[adapter]!.clear();
    return errors;
  };

  beforeAll(async () => {
    for (const adapter of ['express', 'fastify'] as const) {
      logs[adapter] = capturedLog();
      const env = { REQUEST_TIMEOUT_MS: '1000', KEEP_ALIVE_TIMEOUT_MS: '1000' };
      const t = await startTestApp({ name: `${database}/${adapter}`, database, adapter }, { env, logger: logs[adapter].logger });
      apps.push(t);
      await t.app.listen(0, '127.0.0.1');
      ports[adapter] = (t.app.getHttpServer().address() as AddressInfo).port;
    }
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  it('has the configured timeouts on both servers', () => {
    for (const t of apps) {
      const server = t.app.getHttpServer() as Record<string, unknown>;
      const { headersTimeout, requestTimeout, keepAliveTimeout, timeout } = server;
      expect({ adapter: t.config.http.adapter, headersTimeout, requestTimeout, keepAliveTimeout, timeout }).toEqual({
        adapter: t.config.http.adapter,
        headersTimeout: 1000,
        requestTimeout: 1000,
        keepAliveTimeout: 1000,
        timeout: 0,
      });
    }
  });

  it.each(STALLED.map((s) => [s.name, s.bytes] as const))('cuts %s with the same envelope within the timeout', async (_name, bytes) => {
    const answers: Record<string, RawResponse> = {};
    for (const [adapter, port] of Object.entries(ports)) {
      const { answer, afterMs } = await untilClosed(port, bytes, 5000);
      // Node checks every quarter of the timeout.
      expect({ adapter, inTime: afterMs >= 900 && afterMs < 2500 }).toEqual({ adapter, inTime: true });
      expect({ adapter, status: answer?.status, body: answer?.json }).toEqual({
        adapter,
        status: 400,
        body: { statusCode: 400, errorCode: 4000, errorMessage: 'The request did not arrive in time.' },
      });
      expect(answer!.headers.connection).toBe('close');
      // Not a database outage (Fastify's reader reported the abort as ECONNRESET, taken for the database's).
      await new Promise((r) => setTimeout(r, 200));
      expect({ adapter, errors: errorsLogged(adapter) }).toEqual({ adapter, errors: [] });
      answers[adapter] = answer!;
    }
    expect(comparableHeaders(answers.express!)).toEqual(comparableHeaders(answers.fastify!));
  });

  it('logs no error when a client goes away in the middle of its body', async () => {
    for (const [adapter, port] of Object.entries(ports)) {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(
        `POST ${B}/@authentication HTTP/1.1\r\nHost: tessera.test\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"username":`,
      );
      await new Promise((r) => setTimeout(r, 200));
      socket.destroy();
      await new Promise((r) => setTimeout(r, 300));
      expect({ adapter, errors: errorsLogged(adapter) }).toEqual({ adapter, errors: [] });
    }
  });

  it('closes an idle keep-alive connection after KEEP_ALIVE_TIMEOUT_MS, and says so in each answer', async () => {
    for (const [adapter, port] of Object.entries(ports)) {
      const { answer, afterMs } = await untilClosed(port, `GET ${B}/@heartbeat HTTP/1.1\r\nHost: tessera.test\r\n\r\n`, 5000);
      expect({ adapter, status: answer?.status, keepAlive: answer?.headers['keep-alive'], connection: answer?.headers.connection }).toEqual(
        {
          adapter,
          status: 200,
          keepAlive: 'timeout=1',
          connection: 'keep-alive',
        },
      );
      // Node waits a second past the advertised time, so that the client is the one to give up first.
      expect({ adapter, inTime: afterMs >= 900 && afterMs < 3500 }).toEqual({ adapter, inTime: true });
    }
  });
});
