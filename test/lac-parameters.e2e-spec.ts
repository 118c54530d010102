import { demoProject } from '../src/demo/project.js';
import type { CustomResourceDefinition } from '../src/documents/levels/custom-resource-definition.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import { apiAs, apiWithKey, type Api } from './support/api.js';
import { loginAs } from './support/auth.js';
import { capturedLog } from './support/captured-log.js';
import { describeEachTarget, describeEachTargetOnBothAdapters, suiteApp, type TestApp } from './support/test-app.js';

type Obj = Record<string, unknown> & { '@metadata'?: { href?: string; checksum?: string; next_batch?: string } };

const ALPHA = encodeURIComponent('Alpha and Sons');
const q = encodeURIComponent;
const rows = (body: unknown): Obj[] => (body as Obj[]).filter((o) => o['@metadata']?.next_batch === undefined);

/**
 * Issue 27, items 1 and 3: every parameter of LAC's lists is taken with its documented meaning (or checked and
 * documented as a no-op), and LAC's sort modifiers, JavaScript escapes and double-quoted names work, on the three
 * databases and both adapters.
 */
describeEachTargetOnBothAdapters("LAC's documented parameters and query grammar", (target) => {
  let t: TestApp;
  let api: Api;
  let key: string;
  const log = capturedLog('info');

  suiteApp(target, { logger: log.logger, env: { LOG_LEVEL: 'info' } }, async (app) => {
    t = app;
    key = await loginAs(t, 'demo', 'Password1');
    api = apiWithKey(t, key);
    // Employees whose names sort differently by case, and two without a name.
    for (const [login, name] of [
      ['lp_a', 'bob'],
      ['lp_b', null],
      ['lp_c', 'Alice'],
      ['lp_d', 'Dave'],
      ['lp_e', null],
      ['lp_f', 'carol'],
    ] as const) {
      await api.post('/employee', { login, name }).expect(201);
    }
  });

  const employees = async (sort: string, parameter = 'sysorder'): Promise<Array<string | null>> => {
    const body = (await api.get(`/employee?sysfilter=${q("like(login:'lp_%')")}&${parameter}=${q(sort)}`).expect(200)).body;
    return rows(body).map((o) => o.name as string | null);
  };

  describe('sort modifiers', () => {
    it("null_first and null_last place the nulls, LAC's example included", async () => {
      // The names in the database's own order (its collation decides where bob and Dave go), then the nulls placed.
      const named = (await employees('(name, login)')).filter((n) => n !== null);
      expect(named).toHaveLength(4);
      expect(await employees('(name:null_first, login)')).toEqual([null, null, ...named]);
      expect(await employees('(name:null_last, login)')).toEqual([...named, null, null]);
      expect(await employees('(name:desc, login)')).toEqual([...[...named].reverse(), null, null]);
      expect(await employees('name null_last, login', 'order')).toEqual(await employees('(name:null_last, login)'));
      const lac = (await api.get(`/customer?sysorder=${q('(name:null_first,balance:desc)')}&pagesize=5`).expect(200)).body as Obj[];
      expect(rows(lac)).toHaveLength(5);
    });

    it('asc_lc and desc_lc compare lower-cased text, as asc_uc and desc_uc compare upper-cased', async () => {
      const named = ['Alice', 'bob', 'carol', 'Dave'];
      expect((await employees('(name:asc_lc)')).filter((n) => n !== null)).toEqual(named);
      expect((await employees('(name:desc_lc)')).filter((n) => n !== null)).toEqual([...named].reverse());
      expect((await employees('name asc_lc', 'order')).filter((n) => n !== null)).toEqual(named);
      expect((await employees('(name:asc_uc)')).filter((n) => n !== null)).toEqual(named);
      expect((await api.get(`/employee?sysorder=${q('(employee_id:asc_lc)')}`).expect(400)).body.errorCode).toBe(4000);
      expect((await api.get(`/employee?sysorder=${q('(name:nulls_first)')}`).expect(400)).body.errorCode).toBe(4001);
    });
  });

  describe('escapes and double-quoted names', () => {
    it.each([
      ["equal(name:'Alpha\\u0020and Sons')", 'sysfilter'],
      ['equal(name:"Alpha\\u0020and\\u0020Sons")', 'sysfilter'],
      [`equal("name":'Alpha and Sons')`, 'sysfilter'],
      [`equal("na\\u006de":'Alpha and Sons')`, 'sysfilter'],
      ["name = 'Alpha\\u0020and Sons'", 'filter'],
      [`"name" = 'Alpha and Sons'`, 'filter'],
    ])('%s (%s) finds Alpha and Sons', async (text, parameter) => {
      const found = rows((await api.get(`/customer?${parameter}=${q(text)}`).expect(200)).body);
      expect(found.map((o) => o.name)).toEqual(['Alpha and Sons']);
    });

    it('decodes \\n, \\t, \\\\ and quotes, and refuses a malformed \\u, an escaped NUL and a lone surrogate', async () => {
      const note = 'line one\nline\ttwo \\ "it\'s"';
      const inserted = (await api.post('/purchaseorder', { customer_name: 'Alpha and Sons', notes: note }).expect(201)).body as {
        txsummary: Obj[];
      };
      const number = inserted.txsummary.find((e) => e.notes === note)!.order_number;
      const written = "equal(notes:'line one\\nline\\ttwo \\\\ \\\"it\\'s\\\"')";
      const found = rows((await api.get(`/purchaseorder?sysfilter=${q(written)}`).expect(200)).body);
      expect(found.map((o) => o.order_number)).toEqual([number]);
      for (const bad of ["equal(name:'\\u12')", "equal(name:'a\\u0000')", "equal(name:'\\uD800')"]) {
        const res = await api.get(`/customer?sysfilter=${q(bad)}`).expect(400);
        expect(res.body.errorCode).toBe(4001);
      }
    });

    it('sorts by a double-quoted name, and a quoted keyword names a column only if there is one', async () => {
      expect(await employees('("name":null_last, "login")')).toEqual(await employees('(name:null_last, login)'));
      expect((await api.get(`/customer?filter=${q('"and" is null')}`).expect(400)).body.errorCode).toBe(4003);
      expect((await api.get(`/customer?filter=${q('name like "Alpha%"')}`).expect(400)).body.errorCode).toBe(4001);
    });
  });

  describe('parameters of every GET', () => {
    it('takes them all at once, and still refuses an unknown one', async () => {
      const all =
        'pagesize=2&offset=0&logging=info&debug=false&downloadName=c.json&deferred=customer.name&inline=customer.name' +
        '&inlinelimit=2000&procrowlimit=-1&procinlinelimit=100&chunksize=1';
      expect(rows((await api.get(`/customer?${all}`).expect(200)).body)).toHaveLength(2);
      expect((await api.get(`/customer/${ALPHA}?${all}`).expect(200)).body).toHaveLength(1);
      expect((await api.get(`/Customers?${all}`).expect(200)).body).toBeInstanceOf(Array);
      expect((await api.get(`/Customers/${ALPHA}?${all}`).expect(200)).body).toHaveLength(1);
      const unknown = await api.get(`/customer?${all}&chunk=1`).expect(400);
      expect(unknown.body).toMatchObject({ errorCode: 4000, errorMessage: expect.stringContaining('"chunk"') });
    });

    it.each([
      ['chunksize=0', 'chunksize'],
      ['procrowlimit=x', 'procrowlimit'],
      ['procinlinelimit=-2', 'procinlinelimit'],
      ['debug=yes', 'debug'],
      ['logging=loud', 'logging'],
      ['inlinelimit=-2', 'inlinelimit'],
      ['deferred=name', 'deferred'],
      ['downloadName=', 'downloadName'],
      [`downloadName=${q('a\r\nSet-Cookie: x=1')}`, 'downloadName'],
    ])('checks the value: %s is 400 / 4000', async (query, name) => {
      const res = await api.get(`/customer?${query}`).expect(400);
      expect(res.body).toMatchObject({ errorCode: 4000, errorMessage: expect.stringContaining(`"${name}"`) });
      expect(res.headers['content-disposition']).toBeUndefined();
    });

    it('ignores offset on a single object, as LAC, on tables and custom resources', async () => {
      expect(((await api.get(`/customer/${ALPHA}?offset=5`).expect(200)).body as Obj[]).map((o) => o.name)).toEqual(['Alpha and Sons']);
      expect(((await api.get(`/Customers/${ALPHA}?offset=5`).expect(200)).body as Obj[]).map((o) => o.name)).toEqual(['Alpha and Sons']);
    });

    it('takes pagesize on @tables/<name>, as the SDK sends it after setPageSize', async () => {
      expect((await api.get('/@tables/customer?pagesize=20').expect(200)).body).toMatchObject({ name: 'customer' });
    });

    it('names the download with downloadName, safely encoded', async () => {
      const list = await api.get(`/customer?pagesize=1&downloadName=${q('Kunden "Übersicht".json')}`).expect(200);
      expect(list.headers['content-disposition']).toBe(
        `attachment; filename="Kunden __bersicht_.json"; filename*=UTF-8''Kunden%20%22%C3%9Cbersicht%22.json`,
      );
      expect(list.headers['content-type']).toMatch(/^application\/json/);
      const one = await api.get(`/customer/${ALPHA}?downloadName=alpha.json`).expect(200);
      expect(one.headers['content-disposition']).toBe(`attachment; filename="alpha.json"; filename*=UTF-8''alpha.json`);
      const value = await api.get(`/customer/${ALPHA}/name?downloadName=${q('../name.txt')}`).expect(200);
      expect(value.headers['content-disposition']).toBe(`attachment; filename=".._name.txt"; filename*=UTF-8''..%2Fname.txt`);
      expect((await api.get('/customer?pagesize=1').expect(200)).headers['content-disposition']).toBeUndefined();
    });

    it('inlinelimit=-1 is no limit; deferred always links, inline always sends whole, deferred first', async () => {
      const note = 'x'.repeat(50);
      const inserted = (await api.post('/purchaseorder', { customer_name: 'Alpha and Sons', notes: note }).expect(201)).body as {
        txsummary: Obj[];
      };
      const number = inserted.txsummary.find((e) => e.notes === note)!.order_number as number;
      const read = async (query: string): Promise<unknown> =>
        ((await api.get(`/purchaseorder/${number}?${query}`).expect(200)).body as Obj[])[0]!.notes;
      const link = { '@metadata': { href: expect.stringMatching(new RegExp(`/purchaseorder/${number}/notes$`)), length: 50 } };
      expect(await read('inlinelimit=10')).toEqual(link);
      expect(await read('inlinelimit=-1')).toBe(note);
      expect(await read('deferred=purchaseorder.notes')).toEqual(link);
      expect(await read('inlinelimit=10&inline=PurchaseOrder.Notes')).toBe(note);
      expect(await read('inlinelimit=-1&inline=purchaseorder.notes&deferred=purchaseorder.notes')).toEqual(link);
      expect(await read('deferred=customer.name')).toBe(note);
      const listed = rows(
        (await api.get(`/purchaseorder?sysfilter=${q(`equal(order_number:${number})`)}&deferred=purchaseorder.notes`).expect(200)).body,
      );
      expect(listed[0]!.notes).toEqual(link);
      const href = ((await read('deferred=purchaseorder.notes')) as { '@metadata': { href: string } })['@metadata'].href;
      expect((await api.getUrl(href).expect(200)).text).toBe(note);
    });
  });

  describe('parameters of writes', () => {
    it('inlinelimit and deferred shape the txsummary; without them values are whole', async () => {
      const note = 'y'.repeat(40);
      const shaped = (
        await api
          .post('/purchaseorder?inlinelimit=10&logging=info&debug=false', { customer_name: 'Alpha and Sons', notes: note })
          .expect(201)
      ).body as { txsummary: Obj[] };
      const order = shaped.txsummary.find((e) => e['@metadata']!.href!.includes('/purchaseorder/'))!;
      expect(order.notes).toEqual({ '@metadata': { href: `${order['@metadata']!.href}/notes`, length: 40 } });
      const number = order.order_number as number;
      const checksum = order['@metadata']!.checksum;
      const updated = (
        await api
          .put(`/purchaseorder/${number}?deferred=purchaseorder.notes&inline=a.b`, { '@metadata': { checksum }, notes: 'short' })
          .expect(200)
      ).body as { txsummary: Obj[] };
      expect(updated.txsummary.find((e) => e.order_number === number)!.notes).toMatchObject({ '@metadata': { length: 5 } });
      const whole = (
        await api.put(`/purchaseorder/${number}?inlinelimit=-1`, { '@metadata': { checksum: 'override' }, notes: note }).expect(200)
      ).body as { txsummary: Obj[] };
      expect(whole.txsummary.find((e) => e.order_number === number)!.notes).toBe(note);
      const plain = (await api.put(`/purchaseorder/${number}`, { '@metadata': { checksum: 'override' }, notes: `${note}!` }).expect(200))
        .body as {
        txsummary: Obj[];
      };
      expect(plain.txsummary.find((e) => e.order_number === number)!.notes).toBe(`${note}!`);
      const deleted = (await api.delete(`/purchaseorder/${number}?checksum=override&inlinelimit=1`).expect(200)).body as {
        txsummary: Obj[];
      };
      expect(deleted.txsummary.find((e) => e.order_number === number)!.notes).toBe(`${note}!`);
    });

    it('ignoredeleted: deleting a missing row answers 200 with an empty txsummary; without it 404 / 4041', async () => {
      expect((await api.delete('/customer/Nobody%20Here?checksum=override').expect(404)).body.errorCode).toBe(4041);
      expect((await api.delete('/customer/Nobody%20Here?checksum=override&ignoredeleted=true').expect(200)).body).toEqual({
        statusCode: 200,
        txsummary: [],
      });
      expect((await api.delete('/customer/Nobody%20Here?checksum=override&ignoredeleted').expect(200)).body).toEqual({
        statusCode: 200,
        txsummary: [],
      });
      expect((await api.delete('/customer/Nobody%20Here?checksum=override&ignoredeleted=true&rulesummary=true').expect(200)).body).toEqual({
        statusCode: 200,
        txsummary: [],
        rulesummary: [],
      });
      expect((await api.delete('/customer/Nobody%20Here?checksum=override&ignoredeleted=false').expect(404)).body.errorCode).toBe(4041);
      await api.post('/customer', { name: 'Ignored Co', credit_limit: 10 }).expect(201);
      const gone = (await api.delete('/customer/Ignored%20Co?checksum=override&ignoredeleted=true').expect(200)).body as {
        txsummary: Obj[];
      };
      expect(gone.txsummary.map((e) => e.name)).toEqual(['Ignored Co']);
      // A stale checksum is still a conflict: ignoredeleted is about rows that are not there.
      await api.post('/customer', { name: 'Stale Co', credit_limit: 10 }).expect(201);
      expect((await api.delete('/customer/Stale%20Co?checksum=R:0000000000000000&ignoredeleted=true').expect(409)).body.errorCode).toBe(
        4090,
      );
    });

    it('refuses what a write does not take', async () => {
      for (const query of ['downloadName=x', 'chunksize=1', 'procrowlimit=1', 'ignoredeleted=true', 'offset=1']) {
        const res = await api.post(`/customer?${query}`, { name: 'Never Co', credit_limit: 1 }).expect(400);
        expect(res.body.errorCode).toBe(4000);
      }
      expect((await api.get('/customer/Never%20Co').expect(200)).body).toEqual([]);
    });
  });

  describe('logging and debug', () => {
    const detailLines = (): Array<Record<string, unknown>> => log.records().filter((r) => r.detail === true);

    it("log this request's detail at debug under its request id, and nothing of its values", async () => {
      log.clear();
      const plain = await api.get(`/customer/${ALPHA}`).expect(200);
      expect(detailLines()).toEqual([]);
      expect(plain.headers['x-request-id']).toBeDefined();

      const res = await api.get(`/customer?sysfilter=${q("equal(name:'Alpha and Sons')")}&logging=${q('sql=finest,*=info')}`).expect(200);
      const id = res.headers['x-request-id'];
      const lines = detailLines();
      expect(lines.map((l) => [l.msg, l.requestId, l.level])).toEqual([
        ['request detail: asked', id, 20],
        ['request detail: answered', id, 20],
      ]);
      expect(lines[0]).toMatchObject({ endpoint: 'list', resource: 'customer', parameters: ['logging', 'sysfilter'] });
      expect(lines[1]).toMatchObject({ rows: 1, more: false, durationMs: expect.any(Number) });

      log.clear();
      const written = await api.post('/customer?debug=true', { name: 'Logged Co', credit_limit: 123456 }).expect(201);
      const write = detailLines();
      expect(write.map((l) => l.requestId)).toEqual([written.headers['x-request-id'], written.headers['x-request-id']]);
      expect(write[1]).toMatchObject({ touched: { 'customer INSERT': 1 } });

      log.clear();
      await api.get(`/customer?logging=debug&sysfilter=${q('equal(nosuch:1)')}`).expect(400);
      expect(detailLines().map((l) => [l.msg, l.errorCode])).toEqual([
        ['request detail: asked', undefined],
        ['request detail: failed', 4003],
      ]);

      const text = log
        .records()
        .filter((r) => r.detail === true)
        .map((r) => JSON.stringify(r))
        .join('\n');
      for (const secret of [key, 'Alpha', 'Logged', 'nosuch']) expect(text).not.toContain(secret);
    });

    it('logs no detail for logging=info, warning or error', async () => {
      log.clear();
      await api.get('/customer?pagesize=1&logging=info').expect(200);
      await api.get('/customer?pagesize=1&logging=ERROR,sql=warning').expect(200);
      expect(detailLines()).toEqual([]);
    });
  });
});

/** A custom resource whose attribute `balance` shows the column credit_limit, and `Owed` the column balance. */
const clashing: CustomResourceDefinition[] = [
  {
    name: 'Accounts',
    entity: 'customer',
    attributes: ['name', { name: 'balance', column: 'credit_limit' }, { name: 'Owed', column: 'balance' }],
  },
  { name: 'Names', entity: 'customer', attributes: ['name'] },
];

describeEachTarget('column names as well as attribute names on a custom resource with aliases', (target) => {
  let api: Api;
  suiteApp(target, { project: { ...demoProject, resources: clashing } satisfies ProjectDefinition }, async (app) => {
    api = await apiAs(app, 'demo');
  });

  const names = async (query: string): Promise<unknown[]> =>
    rows(ok(await api.get(`/Accounts?${query.includes('pagesize=') ? '' : 'pagesize=100&'}${query}`)).body).map((o) => o.name);

  it('filters and sorts by the column behind an attribute, as by the attribute', async () => {
    const threshold = 'greater(Owed:0)';
    expect(await names(`sysfilter=${q(threshold)}&sysorder=${q('(Owed:desc,name)')}`)).toEqual(
      await names(`sysfilter=${q(threshold)}&sysorder=${q('("Owed":desc,"name")')}`),
    );
    expect(await names(`sysfilter=${q('greater(credit_limit:8000)')}`)).toEqual(['Alpha and Sons']);
    expect(await names(`filter=${q('credit_limit > 8000')}`)).toEqual(['Alpha and Sons']);
    expect(await names(`sysorder=${q('(credit_limit:desc)')}&pagesize=1`)).toEqual(['Alpha and Sons']);
  });

  it('lets the attribute win when it shares its name with a column', async () => {
    // `balance` is the attribute (column credit_limit): only Alpha and Sons has a credit limit above 8000.
    expect(await names(`sysfilter=${q('greater(balance:8000)')}`)).toEqual(['Alpha and Sons']);
    expect(await names(`sysorder=${q('(balance:desc)')}&pagesize=1`)).toEqual(['Alpha and Sons']);
  });

  it('refuses a column the level does not show', async () => {
    for (const query of [`sysfilter=${q('greater(balance:0)')}`, `filter=${q('credit_limit > 0')}`, `sysorder=${q('(balance:desc)')}`]) {
      expect((await api.get(`/Names?${query}`).expect(400)).body.errorCode).toBe(4003);
    }
    expect((await api.get(`/Accounts?sysfilter=${q('equal(nosuch:1)')}`).expect(400)).body.errorCode).toBe(4003);
  });
});
/** The answer, when it is 200 (else the failure shows its body). */
function ok<T extends { status: number; body: unknown }>(res: T): T {
  expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
  return res;
}
