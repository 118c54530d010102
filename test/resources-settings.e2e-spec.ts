import { demoProducts } from '../src/demo/seed/demo-data.js';
import { API_HOST, apiAs, type Api } from './support/api.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

const q = encodeURIComponent;

describeEachTarget('resources: deployment settings', (target) => {
  describe('ALLOW_FREE_FORM_FILTERS=false', () => {
    let t: TestApp;
    let api: Api;

    suiteApp(target, { env: { ALLOW_FREE_FORM_FILTERS: 'false' } }, async (app) => {
      t = app;
      api = await apiAs(t, 'demo');
    });

    it.each([
      ['filter', `filter=${q('price > 20')}`],
      ['order', `order=${q('price desc')}`],
      ['filter next to sysfilter', `filter=${q('price > 20')}&sysfilter=${q('less(price:100)')}`],
      ['an empty filter', 'filter='],
    ])('refuses %s with 400 / 4002', async (_label, query) => {
      const res = await api.get(`/product?${query}`).expect(400);
      expect(res.body).toMatchObject({ statusCode: 400, errorCode: 4002 });
    });

    it('still filters with sysfilter and sorts with sysorder', async () => {
      const res = await api.get(`/product?sysfilter=${q('greater(price:20)')}&sysorder=${q('(price:desc)')}`).expect(200);
      const expected = demoProducts.filter((p) => Number(p.price) > 20).sort((a, b) => Number(b.price) - Number(a.price));
      expect(res.body.map((p: { name: string }) => p.name)).toEqual(expected.map((p) => p.name));
    });
  });

  describe('TRUST_PROXY=true', () => {
    let t: TestApp;
    let api: Api;

    suiteApp(target, { env: { TRUST_PROXY: 'true' } }, async (app) => {
      t = app;
      api = await apiAs(t, 'demo');
    });

    it('builds href and next_batch from X-Forwarded-Proto and X-Forwarded-Host', async () => {
      const res = await api
        .get('/product?pagesize=2')
        .set('X-Forwarded-Proto', 'https')
        .set('X-Forwarded-Host', 'api.example.com, proxy.internal')
        .expect(200);
      expect(res.body[0]['@metadata'].href).toBe(`https://api.example.com${t.base}/product/1`);
      expect(res.body[2]['@metadata'].next_batch).toBe(`https://api.example.com${t.base}/product?pagesize=2&offset=2`);
    });

    it('uses the Host header when no forwarded headers come, and ignores a forwarded scheme it does not know', async () => {
      const res = await api.get('/product?pagesize=1').set('X-Forwarded-Proto', 'gopher').expect(200);
      expect(res.body[0]['@metadata'].href).toBe(`http://${API_HOST}${t.base}/product/1`);
      expect(res.body[1]['@metadata'].next_batch).toBe(`http://${API_HOST}${t.base}/product?pagesize=1&offset=1`);
    });

    it('puts the forwarded origin in the transaction summary too', async () => {
      const res = await api
        .post('/product', { name: 'Proxied', price: 1 })
        .set('X-Forwarded-Proto', 'https')
        .set('X-Forwarded-Host', 'api.example.com')
        .expect(201);
      expect(res.body.txsummary[0]['@metadata'].href).toMatch(new RegExp(`^https://api\\.example\\.com${t.base}/product/\\d+$`));
    });
  });
});
