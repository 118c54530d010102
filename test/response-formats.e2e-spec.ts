import { API_HOST, apiAs, type Api } from './support/api.js';
import { describeEachTargetOnBothAdapters, suiteApp, type TestApp } from './support/test-app.js';
import { xmlProblem } from './support/xml-well-formed.js';

const ALPHA = 'Alpha%20and%20Sons';

/** RFC 4180 records (CRLF line ends, quoted fields with doubled quotes), parsed apart from the writer. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  expect(field).toBe('');
  expect(row).toEqual([]);
  return rows;
}

/** supertest keeps text/csv and XML bodies as text. */
const textOf = (res: { text: string }): string => res.text;

describeEachTargetOnBothAdapters('response formats: CSV and XML by Accept', (target) => {
  let t: TestApp;
  let api: Api;

  suiteApp(target, {}, async (app) => {
    t = app;
    api = await apiAs(app, 'demo');
  });

  const base = (): string => `http://${API_HOST}${t.base}`;

  describe('CSV', () => {
    it('answers a table as CSV: a header row of its attributes, then one line per object, no @metadata', async () => {
      const json = (await api.get('/customer?pagesize=100').expect(200)).body as Array<Record<string, unknown>>;
      const res = await api.get('/customer?pagesize=100').set('Accept', 'text/csv').expect(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers.vary).toMatch(/\bAccept\b/);
      const [header, ...lines] = parseCsv(textOf(res));
      const columns = Object.keys(json[0]!).filter((k) => k !== '@metadata');
      expect(header).toEqual(columns);
      expect(lines).toHaveLength(json.length);
      // Values as JSON gives them: numbers as their JSON text, null empty.
      for (const [i, object] of json.entries()) {
        expect(lines[i]).toEqual(columns.map((c) => (object[c] === null ? '' : String(object[c] as string | number))));
      }
    });

    it('answers a get-by-key as CSV, without the JSON ETag', async () => {
      const res = await api.get(`/customer/${ALPHA}`).set('Accept', 'text/csv').expect(200);
      const [header, line, ...rest] = parseCsv(textOf(res));
      expect(rest).toEqual([]);
      expect(line![header!.indexOf('name')]).toBe('Alpha and Sons');
      expect(res.headers.etag).toBeUndefined();
      // Not found: the header row alone.
      expect(parseCsv(textOf(await api.get('/customer/nobody').set('Accept', 'text/csv').expect(200)))).toEqual([header]);
    });

    it('puts the next batch in a Link header, which answers the next rows', async () => {
      const first = await api.get('/customer?pagesize=2').set('Accept', 'text/csv').expect(200);
      expect(parseCsv(textOf(first))).toHaveLength(3);
      const link = /^<([^>]+)>; rel="next"$/.exec(first.headers.link as string);
      expect(link).not.toBeNull();
      const jsonBatch = (await api.get('/customer?pagesize=2').expect(200)).body as Array<Record<string, { next_batch?: string }>>;
      expect(link![1]).toBe(jsonBatch.at(-1)!['@metadata']!.next_batch);
      const next = await api.getUrl(link![1]!).set('Accept', 'text/csv').expect(200);
      const names = parseCsv(textOf(next))
        .slice(1)
        .map((r) => r[0]);
      const expected = ((await api.getUrl(link![1]!).expect(200)).body as Array<Record<string, unknown>>)
        .filter((o) => o.name !== undefined)
        .map((o) => o.name);
      expect(names).toEqual(expected);
    });

    it('prefixes a value a spreadsheet would run as a formula', async () => {
      const name = '=HYPERLINK("x")';
      await api.post('/customer', { name, credit_limit: 100 }).expect(201);
      try {
        const res = await api
          .get(`/customer/${encodeURIComponent(name)}`)
          .set('Accept', 'text/csv')
          .expect(200);
        expect(textOf(res)).toContain(`"'=HYPERLINK(""x"")"`);
        expect(parseCsv(textOf(res))[1]![0]).toBe(`'${name}`);
      } finally {
        await api.delete(`/customer/${encodeURIComponent(name)}?checksum=override`).expect(200);
      }
    });

    it('flattens a custom resource level with a parent into <parent>.<attribute> columns', async () => {
      const json = (await api.get('/Customers.Orders.Lineitems?pagesize=3').expect(200)).body as Array<Record<string, unknown>>;
      const res = await api.get('/Customers.Orders.Lineitems?pagesize=3').set('Accept', 'text/csv').expect(200);
      const [header, ...lines] = parseCsv(textOf(res));
      expect(header).toEqual(expect.arrayContaining(['Product.product_number', 'Product.name', 'Product.price']));
      const first = json[0]!;
      const product = first.Product as Record<string, unknown>;
      expect(lines[0]![header!.indexOf('Product.name')]).toBe(product.name);
      expect(res.headers.link).toMatch(/rel="next"/);
    });

    it('refuses CSV of a level holding lists: 406 / 4060 in JSON, naming the list', async () => {
      const res = await api.get('/Customers').set('Accept', 'text/csv').expect(406);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toEqual({ statusCode: 406, errorCode: 4060, errorMessage: expect.stringMatching(/Orders.*Customers\.Orders/) });
    });
  });

  describe('XML', () => {
    it('answers a table as well-formed XML, @metadata in attributes, next batch as an element and a Link', async () => {
      const json = (await api.get('/customer?pagesize=2').expect(200)).body as Array<Record<string, Record<string, string>>>;
      const res = await api.get('/customer?pagesize=2').set('Accept', 'application/xml').expect(200);
      expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
      const xml = textOf(res);
      expect(xmlProblem(xml)).toBeUndefined();
      expect(xml).toContain(`<object href="${json[0]!['@metadata']!.href}" checksum="${json[0]!['@metadata']!.checksum}">`);
      const next = json.at(-1)!['@metadata']!.next_batch!;
      expect(xml).toContain(`<next_batch href="${next.replaceAll('&', '&amp;')}"/>`);
      expect(res.headers.link).toBe(`<${next}>; rel="next"`);
    });

    it('answers a custom resource with its levels nested', async () => {
      const res = await api.get(`/Customers/${ALPHA}`).set('Accept', 'text/xml').expect(200);
      expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
      const xml = textOf(res);
      expect(xmlProblem(xml)).toBeUndefined();
      expect(xml).toContain(`<object href="${base()}/Customers/${ALPHA}"`);
      expect(xml).toMatch(/<Orders><object [^>]*>.*<Lineitems><object [^>]*>.*<Product><object [^>]*>/s);
    });

    it('writes null as xsi:nil and escapes text', async () => {
      const name = 'Tom & <Jerry> "Inc"';
      await api.post('/customer', { name, credit_limit: 100 }).expect(201);
      const order = (await api.post('/purchaseorder', { customer_name: name, salesrep_id: null }).expect(201)).body.txsummary.find(
        (r: { '@metadata': { resource: string } }) => r['@metadata'].resource === 'purchaseorder',
      );
      try {
        const xml = textOf(
          await api
            .get(`/customer/${encodeURIComponent(name)}`)
            .set('Accept', 'application/xml')
            .expect(200),
        );
        expect(xmlProblem(xml)).toBeUndefined();
        expect(xml).toContain('<name>Tom &amp; &lt;Jerry&gt; "Inc"</name>');
        const orderXml = textOf(await api.getUrl(order['@metadata'].href).set('Accept', 'application/xml').expect(200));
        expect(orderXml).toContain('<salesrep_id xsi:nil="true"/>');
      } finally {
        await api.delete(`/purchaseorder/${order.order_number}?checksum=override`).expect(200);
        await api.delete(`/customer/${encodeURIComponent(name)}?checksum=override`).expect(200);
      }
    });
  });

  describe('negotiation', () => {
    it('keeps JSON the default, and what */* and a tie get', async () => {
      for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/csv', 'text/csv;q=0.5, */*']) {
        const test = api.get('/customer?pagesize=1');
        if (accept) test.set('Accept', accept);
        const res = await test.expect(200);
        expect({ accept, type: res.headers['content-type'] }).toEqual({ accept, type: 'application/json; charset=utf-8' });
      }
      const csv = await api.get('/customer?pagesize=1').set('Accept', 'application/json;q=0.4, text/csv;q=0.8').expect(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    });

    it('answers 406 / 4060 in JSON to an Accept that allows none of the three', async () => {
      for (const path of ['/customer', `/customer/${ALPHA}`, '/Customers']) {
        const res = await api.get(path).set('Accept', 'text/html, image/*').expect(406);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.body).toEqual({ statusCode: 406, errorCode: 4060, errorMessage: expect.stringMatching(/text\/csv/) });
      }
    });

    it('keeps errors in the JSON envelope whatever Accept asks for', async () => {
      const bad = await api.get('/customer?filter=name%20%3D').set('Accept', 'text/csv').expect(400);
      expect(bad.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(bad.body.errorCode).toBe(4001);
      const missing = await api.get('/nosuchthing').set('Accept', 'application/xml').expect(404);
      expect(missing.headers['content-type']).toBe('application/json; charset=utf-8');
      const noToken = await t.http().get(`${t.base}/customer`).set('Host', API_HOST).set('Accept', 'text/csv').expect(401);
      expect(noToken.body.errorCode).toBe(4010);
    });
  });
});
