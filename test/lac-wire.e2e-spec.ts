import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'supertest';
import { apiWithKey, API_HOST, type Api } from './support/api.js';
import { loginAs } from './support/auth.js';
import { describeEachTargetOnBothAdapters, suiteApp, type TestApp } from './support/test-app.js';

interface Answer {
  status: number;
  body: unknown;
}

type Row = Record<string, unknown> & { '@metadata'?: { checksum: string; href: string; next_batch?: string } };

/**
 * LAC's wire behaviour that its clients rely on (issue 16): bodies without Content-Type, PATCH, nometa,
 * txsummary=false, the sysorder and sysfilter forms of LAC's CLI, and no silent query parameters.
 */
describeEachTargetOnBothAdapters('LAC wire compatibility', (target) => {
  let t: TestApp;
  let api: Api;
  let key: string;
  let port: number;

  suiteApp(target, {}, async (app) => {
    t = app;
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    key = await loginAs(t, 'demo', 'Password1');
    api = apiWithKey(t, key);
  });

  /**
   * A request as LAC's Node SDK sends it: node:http, headers as given (no Content-Type unless given), the body
   * written with `end()`, so chunked unless a Content-Length is given.
   */
  function send(method: string, path: string, body: string | undefined, headers: Record<string, string> = {}): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, method, path: `${t.base}${path}`, headers: { Host: API_HOST, ...headers } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text === '' ? undefined : JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  const auth = (): Record<string, string> => ({ Authorization: `CALiveAPICreator ${key}:1` });

  /** PATCH through supertest (the Api helper has no patch). */
  function patch(path: string, body: unknown, apikey = key): Test {
    return t
      .http()
      .patch(`${t.base}${path}`)
      .set('Host', API_HOST)
      .set('Authorization', `CALiveAPICreator ${apikey}:1`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));
  }

  async function current(path: string): Promise<Row & { '@metadata': { checksum: string; href: string } }> {
    const res = await api.get(path).expect(200);
    expect(res.body).toHaveLength(1);
    return res.body[0];
  }

  function expectError(answer: { status: number; body: unknown }, status: number, errorCode: number, message?: RegExp | string): void {
    expect({ status: answer.status, body: answer.body }).toEqual({
      status,
      body: { statusCode: status, errorCode, errorMessage: message === undefined ? expect.any(String) : expect.stringMatching(message) },
    });
  }

  describe('a body without Content-Type is read as JSON', () => {
    it('logs in as the LAC SDK does (chunked, no Content-Type)', async () => {
      const res = await send('POST', '/@authentication', JSON.stringify({ username: 'demo', password: 'Password1' }));
      expect(res.status).toBe(200);
      expect((res.body as { apikey: string }).apikey).toEqual(expect.any(String));
      const sized = JSON.stringify({ username: 'readonly', password: 'Password1' });
      const withLength = await send('POST', '/@authentication', sized, { 'Content-Length': String(Buffer.byteLength(sized)) });
      expect(withLength.status).toBe(200);
    });

    it('inserts, updates and patches without Content-Type', async () => {
      const inserted = await send('POST', '/customer', JSON.stringify({ name: 'No Type Co', credit_limit: 100 }), auth());
      expect(inserted.status).toBe(201);
      const before = await current('/customer/No%20Type%20Co');
      const body = JSON.stringify({ '@metadata': { checksum: before['@metadata'].checksum }, credit_limit: 200 });
      expect((await send('PUT', '/customer/No%20Type%20Co', body, auth())).status).toBe(200);
      const patch = JSON.stringify({ '@metadata': { checksum: 'override' }, credit_limit: 300 });
      expect((await send('PATCH', '/customer/No%20Type%20Co', patch, auth())).status).toBe(200);
      expect((await current('/customer/No%20Type%20Co')).credit_limit).toBe(300);
    });

    it('answers 400 / 4000 to a body without Content-Type that is not JSON', async () => {
      expectError(await send('POST', '/@authentication', 'username=demo&password=Password1'), 400, 4000, /not valid JSON/);
      expectError(await send('POST', '/customer', '{"name":', auth()), 400, 4000, /not valid JSON/);
    });

    it('refuses it from a browser on another site (415 / 4150): an Origin CORS_ORIGINS does not list, or Sec-Fetch-Site cross-site or same-site', async () => {
      const login = JSON.stringify({ username: 'demo', password: 'Password1' });
      const refused = /without Content-Type is read as JSON only/;
      expectError(await send('POST', '/@authentication', login, { Origin: 'http://evil.example' }), 415, 4150, refused);
      expectError(await send('POST', '/@authentication', login, { Origin: 'null' }), 415, 4150, refused);
      expectError(await send('POST', '/@authentication', login, { 'Sec-Fetch-Site': 'cross-site' }), 415, 4150, refused);
      expectError(await send('POST', '/@authentication', login, { 'Sec-Fetch-Site': 'same-site' }), 415, 4150, refused);
      const evil = JSON.stringify({ name: 'Cross Site Co', credit_limit: 1 });
      expectError(
        await send('POST', '/customer', evil, { ...auth(), Origin: 'http://evil.example', 'Sec-Fetch-Site': 'cross-site' }),
        415,
        4150,
      );
      expect(await api.get('/customer?sysfilter=equal(name:%27Cross%20Site%20Co%27)').expect(200)).toMatchObject({ body: [] });
      // Typed JSON is read from anywhere (a page elsewhere cannot send it without a preflight, which CORS answers).
      const typed = await send('POST', '/@authentication', login, { Origin: 'http://evil.example', 'Content-Type': 'application/json' });
      expect(typed.status).toBe(200);
      // Not from another site: read as JSON, as from the SDK.
      for (const site of ['same-origin', 'none']) {
        expect((await send('POST', '/@authentication', login, { 'Sec-Fetch-Site': site })).status).toBe(200);
      }
    });

    it('still answers 415 / 4150 to a Content-Type that is not JSON, the empty one included', async () => {
      const login = JSON.stringify({ username: 'demo', password: 'Password1' });
      expectError(await send('POST', '/@authentication', login, { 'Content-Type': 'text/plain' }), 415, 4150);
      expectError(await send('POST', '/@authentication', login, { 'Content-Type': '' }), 415, 4150);
      expectError(
        await send('POST', '/customer', '{"name":"Form Co"}', { ...auth(), 'Content-Type': 'application/x-www-form-urlencoded' }),
        415,
        4150,
      );
      expect(await api.get('/customer?sysfilter=equal(name:%27Form%20Co%27)').expect(200)).toMatchObject({ body: [] });
    });
  });

  describe('sysorder and sysfilter as LAC writes them', () => {
    it('sorts by the CLI help example (balance,name desc): no direction is ascending, a space may precede one', async () => {
      const res = await api.get(`/customer?pagesize=100&sysorder=${encodeURIComponent('(balance,name desc)')}`).expect(200);
      const rows = (res.body as Array<{ name: string; balance: number }>).filter((r) => typeof r.name === 'string');
      expect(rows.length).toBeGreaterThan(20);
      const expected = [...rows].sort((a, b) => a.balance - b.balance || (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
      expect(rows.map((r) => r.name)).toEqual(expected.map((r) => r.name));
      const byName = await api.get(`/customer?pagesize=3&sysorder=${encodeURIComponent('(name)')}`).expect(200);
      const colon = await api.get(`/customer?pagesize=3&sysorder=${encodeURIComponent('(name:asc)')}`).expect(200);
      expect(byName.body.slice(0, 3)).toEqual(colon.body.slice(0, 3));
    });

    it('names the position of a sysorder error', async () => {
      const res = await api.get(`/customer?sysorder=${encodeURIComponent('(balance, name up)')}`);
      expectError(res, 400, 4001, /^sysorder syntax error at position 16: /);
    });

    it('reads double-quoted sysfilter values and backslash-escaped quotes', async () => {
      const name = `O'Brien "Bob" Ltd`;
      await api.post('/customer', { name, credit_limit: 10 }).expect(201);
      for (const sysfilter of [
        `equal(name:'O\\'Brien "Bob" Ltd')`,
        `equal(name:"O'Brien \\"Bob\\" Ltd")`,
        `equal(name:'O''Brien "Bob" Ltd')`,
      ]) {
        const res = await api.get(`/customer?sysfilter=${encodeURIComponent(sysfilter)}`).expect(200);
        expect({ sysfilter, names: res.body.map((r: Row) => r.name) }).toEqual({ sysfilter, names: [name] });
      }
      const unclosed = await api.get(`/customer?sysfilter=${encodeURIComponent(`equal(name:'O\\')`)}`);
      expectError(unclosed, 400, 4001, /^sysfilter syntax error at position 12: this string has no closing quote/);
    });

    it('keeps SQL strings in a free-form filter: a double-quoted text there is a name (LAC 5.3), never a value', async () => {
      expectError(await api.get(`/customer?filter=${encodeURIComponent('name = "x"')}`), 400, 4003, 'unknown column "x"');
      expectError(
        await api.get(`/customer?filter=${encodeURIComponent('name like "x"')}`),
        400,
        4001,
        /^filter syntax error at position 11/,
      );
    });
  });

  describe('PATCH is PUT', () => {
    it('updates one object, with the checksum rules of PUT', async () => {
      await api.post('/customer', { name: 'Patch Co', credit_limit: 500 }).expect(201);
      const before = await current('/customer/Patch%20Co');
      const stale = { '@metadata': { checksum: before['@metadata'].checksum }, credit_limit: 600 };
      const res = await patch('/customer/Patch%20Co', stale).expect(200);
      expect(res.body.txsummary).toEqual([expect.objectContaining({ name: 'Patch Co', credit_limit: 600 })]);
      expect(res.body.txsummary[0]['@metadata']).toMatchObject({ verb: 'UPDATE', resource: 'customer' });
      expect((await patch('/customer/Patch%20Co', stale)).status).toBe(409);
      expectError(await patch('/customer/Patch%20Co', { credit_limit: 1 }), 400, 4004);
    });

    it('updates a collection as PUT on the collection does', async () => {
      const row = await current('/customer/Patch%20Co');
      const res = await patch('/customer', [{ '@metadata': row['@metadata'], credit_limit: 700 }]).expect(200);
      expect(res.body.txsummary[0]).toMatchObject({ name: 'Patch Co', credit_limit: 700 });
    });

    it('needs UPDATE access', async () => {
      const readonlyKey = await loginAs(t, 'readonly', 'Password1');
      const body = { '@metadata': { checksum: 'override' }, credit_limit: 1 };
      const put = await apiWithKey(t, readonlyKey).put('/customer/Patch%20Co', body);
      expect(put.status).toBe(403);
      expectError(await patch('/customer/Patch%20Co', body, readonlyKey), put.status, put.body.errorCode);
      expectError(await patch('/customer', [{ ...body, name: 'Patch Co' }], readonlyKey), put.status, put.body.errorCode);
      expect((await current('/customer/Patch%20Co')).credit_limit).toBe(700);
    });
  });

  describe('nometa and txsummary', () => {
    it('nometa=true leaves @metadata out of a collection and of an object, and keeps paging', async () => {
      const res = await api.get('/customer?pagesize=2&nometa=true').expect(200);
      expect(res.body).toHaveLength(3);
      expect(res.body.slice(0, 2).every((r: Row) => r['@metadata'] === undefined && typeof r.name === 'string')).toBe(true);
      const next = res.body[2]['@metadata'].next_batch as string;
      expect(next).toContain('nometa=true');
      expect((await api.getUrl(next).expect(200)).body[0]['@metadata']).toBeUndefined();
      const withMeta = await current('/customer/Patch%20Co');
      const bare = await api.get('/customer/Patch%20Co?nometa=true').expect(200);
      expect(bare.body).toEqual([Object.fromEntries(Object.entries(withMeta).filter(([k]) => k !== '@metadata'))]);
      expect(bare.headers.etag).toBe(`"${withMeta['@metadata'].checksum}"`);
      expect((await api.get('/customer/Patch%20Co?nometa=false').expect(200)).body).toEqual([withMeta]);
    });

    it('txsummary=false answers a write with its status code alone', async () => {
      const inserted = await api.post('/customer?txsummary=false', { name: 'Quiet Co', credit_limit: 5 }).expect(201);
      expect(inserted.body).toEqual({ statusCode: 201 });
      const updated = await api
        .put('/customer/Quiet%20Co?txsummary=false', { '@metadata': { checksum: 'override' }, credit_limit: 6 })
        .expect(200);
      expect(updated.body).toEqual({ statusCode: 200 });
      expect((await current('/customer/Quiet%20Co')).credit_limit).toBe(6);
      expect(
        (await api.put('/customer/Quiet%20Co?txsummary=true', { '@metadata': { checksum: 'override' }, credit_limit: 7 })).body.txsummary,
      ).toHaveLength(1);
      expect((await api.delete('/customer/Quiet%20Co?checksum=override&txsummary=false').expect(200)).body).toEqual({ statusCode: 200 });
      expect((await api.get('/customer/Quiet%20Co').expect(200)).body).toEqual([]);
    });

    it.each([
      ['get', '/customer?nometa=yes', 'nometa'],
      ['get', '/customer/Patch%20Co?nometa=1', 'nometa'],
      ['post', '/customer?txsummary=no', 'txsummary'],
      ['delete', '/customer/Patch%20Co?checksum=override&txsummary=False', 'txsummary'],
      ['post', '/customer?rulesummary=maybe', 'rulesummary'],
      ['get', '/customer?inlinelimit=lots', 'inlinelimit'],
    ] as const)('%s %s: 400 / 4000 for a value other than true/false or a number', async (verb, path, name) => {
      const res = verb === 'post' ? await api.post(path, { name: 'Never Co', credit_limit: 1 }) : await api[verb](path);
      expectError(res, 400, 4000, new RegExp(`"${name}" must be`));
      expect((await api.get('/customer/Never%20Co').expect(200)).body).toEqual([]);
      expect(await current('/customer/Patch%20Co')).toMatchObject({ name: 'Patch Co' });
    });
  });

  describe('no silent query parameters', () => {
    it.each([
      ['get', '/customer?bogus=1', 'bogus'],
      ['get', '/customer?sysfilter=equal(name:%27x%27)&Pagesize=2', 'Pagesize'],
      ['get', '/customer?filter.Orders=1', 'filter.Orders'],
      ['get', '/customer/Patch%20Co?sysfilter=equal(name:%27x%27)', 'sysfilter'],
      ['get', '/customer/Patch%20Co?ignoredeleted=true', 'ignoredeleted'],
      ['post', '/customer?checksum=override', 'checksum'],
      ['put', '/customer/Patch%20Co?nometa=true', 'nometa'],
      ['patch', '/customer/Patch%20Co?filter=1', 'filter'],
      ['delete', '/customer/Patch%20Co?checksum=override&cascade=true', 'cascade'],
    ] as const)('%s %s: 400 / 4000 naming it, and nothing done', async (verb, path, name) => {
      const body = verb === 'post' ? { name: 'Silent Co', credit_limit: 1 } : { '@metadata': { checksum: 'override' }, credit_limit: 1 };
      const res =
        verb === 'get' || verb === 'delete'
          ? await api[verb](path)
          : verb === 'patch'
            ? await patch(path, body)
            : await api[verb](path, body);
      expectError(res, 400, 4000, `Unknown query parameter "${name}"`);
      expect((await api.get('/customer/Silent%20Co').expect(200)).body).toEqual([]);
      expect(await current('/customer/Patch%20Co')).toMatchObject({ credit_limit: 700 });
    });

    it('reads odd query strings alike on both adapters', async () => {
      await api.get('/customer?&&pagesize=1&').expect(200);
      expectError(await api.get('/customer?=1'), 400, 4000, 'Unknown query parameter ""');
      expectError(await api.get('/customer?nometa'), 400, 4000, '"nometa" must be true or false');
      expectError(await api.get('/customer?nometa=true&nometa=true'), 400, 4000, '"nometa" may be given once');
      expectError(await api.get('/customer?%E2%9C%93=1'), 400, 4000, 'Unknown query parameter "✓"');
      expectError(await api.get('/customer?__proto__=1'), 400, 4000, 'Unknown query parameter "__proto__"');
    });

    it('shortens a long unknown name in the message', async () => {
      const res = await api.get(`/customer?${'z'.repeat(1000)}=1`);
      expectError(res, 400, 4000);
      expect((res.body as { errorMessage: string }).errorMessage).toContain(`"${'z'.repeat(64)}…"`);
      expect((res.body as { errorMessage: string }).errorMessage.length).toBeLessThan(400);
    });

    it('accepts every parameter the LAC CLI sends to a table, and the SDK’s pagesize on writes', async () => {
      const cli = `sysfilter=${encodeURIComponent('greater(credit_limit:0)')}&sysorder=${encodeURIComponent('(name desc)')}&pagesize=5&offset=1&nometa=true&inlinelimit=2000`;
      const res = await api.get(`/customer?${cli}`).expect(200);
      expect(res.body).toHaveLength(6);
      await api.post('/customer?pagesize=20&rulesummary=false', { name: 'Sdk Co', credit_limit: 1 }).expect(201);
      await api.get('/customer/Sdk%20Co?pagesize=5&inlinelimit=100').expect(200);
      await api.put('/customer/Sdk%20Co?pagesize=20', { '@metadata': { checksum: 'override' }, credit_limit: 700 }).expect(200);
      await api.delete('/customer/Sdk%20Co?checksum=override').expect(200);
    });

    it('leaves the system endpoints as they were (the CLI’s schema command)', async () => {
      await api.get(`/@tables?sysorder=${encodeURIComponent('(entity:asc_uc,entity:desc)')}&pagesize=1000`).expect(200);
      await api.get('/@heartbeat?anything=1').expect(200);
    });
  });
});
