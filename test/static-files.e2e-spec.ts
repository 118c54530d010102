/**
 * The console's files at /admin/ and Swagger UI at <base>/@docs/ui, served by the HTTP server itself (the same on both
 * adapters): deep links, caching, content types, the pages' own CSP, and nothing outside the two folders. Needs the
 * console built into dist/console (`npm run build`, which `npm test` runs first).
 */
import { expect, it } from '@jest/globals';
import { CONSOLE_BUDGET_BYTES, consoleBundleBytes } from '../scripts/build.mjs';
import { describeEachTargetOnBothAdapters, suiteApp, type TestApp } from './support/test-app.js';
import { ApiSettings } from '../src/config/api-settings.js';

describeEachTargetOnBothAdapters('static files: the console and Swagger UI', (target) => {
  let t: TestApp;
  suiteApp(target, {}, (app) => {
    t = app;
  });

  it("keeps the console's script and stylesheet under 250 KB gzipped", () => {
    expect(CONSOLE_BUDGET_BYTES).toBe(250 * 1024);
    const bytes = consoleBundleBytes();
    expect(bytes).toBeGreaterThan(1000);
    expect(bytes).toBeLessThan(CONSOLE_BUDGET_BYTES);
  });

  it('sends / to the console: 302 to /admin/, for GET and HEAD, whatever the query', async () => {
    for (const path of ['/', '/?from=bookmark']) {
      const answer = await t.http().get(path).expect(302);
      expect(answer.headers.location).toBe('/admin/');
      expect(answer.headers['content-length']).toBe('0');
    }
    expect((await t.http().head('/').expect(302)).headers.location).toBe('/admin/');
    // Only the bare root: anything else under it is still the API's 404.
    const other = await t.http().get('/index.html').expect(404);
    expect(other.body.errorCode).toBe(4040);
    await t.http().post('/').send({}).expect(404);
  });

  it('redirects /admin to /admin/ and answers the console page for every page path', async () => {
    const redirect = await t.http().get('/admin').expect(301);
    expect(redirect.headers.location).toBe('/admin/');
    for (const path of ['/admin/', '/admin/users', '/admin/tokens/12?x=1', '/admin/data']) {
      const page = await t.http().get(path).expect(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.text).toContain('<div id="app"></div>');
      // Every version the API serves (the demo's v1 and v2), the first one first.
      const bases = t.app.get(ApiSettings).versions.map((version) => t.base.replace(/[^/]+$/, version));
      expect(bases[0]).toBe(t.base);
      expect(page.text).toContain(`<meta name="tessera-api-bases" content="${bases.join(' ')}" />`);
    }
  });

  it('gives the pages a CSP of their own: scripts and styles from Tessera only, no upgrade to HTTPS', async () => {
    const page = await t.http().get('/admin/').expect(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('https:');
    expect(csp).not.toContain('upgrade-insecure-requests');
    // The API keeps helmet's.
    const api = await t.http().get(`${t.base}/@heartbeat`);
    expect(String(api.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
  });

  it('serves hashed assets for a year, revalidates the page by ETag, and answers HEAD without a body', async () => {
    const page = await t.http().get('/admin/').expect(200);
    const script = /src="(\/admin\/assets\/app-[A-Za-z0-9]+\.js)"/.exec(page.text)?.[1] ?? '';
    const style = /href="(\/admin\/assets\/app-[A-Za-z0-9]+\.css)"/.exec(page.text)?.[1] ?? '';
    const js = await t.http().get(script).expect(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const css = await t.http().get(style).expect(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    await t.http().get('/admin/').set('If-None-Match', String(page.headers.etag)).expect(304);
    const head = await t.http().head(script).expect(200);
    expect(head.headers['content-length']).toBe(js.headers['content-length']);
    expect(head.text).toBeUndefined();
  });

  it('reads nothing outside its folders: traversal, dot files and unknown assets are 404 envelopes', async () => {
    for (const path of [
      '/admin/assets/..%2F..%2F..%2Fpackage.json',
      '/admin/assets/%2e%2e%2findex.html',
      '/admin/assets/.build-stamp',
      '/admin/assets/nope.js',
      '/admin/assets/',
      `${t.base}/@docs/ui/package.json`,
      `${t.base}/@docs/ui/..%2F..%2Fpackage.json`,
      `${t.base}/@docs/ui/index.html`,
    ]) {
      const answer = await t.http().get(path).expect(404);
      expect(answer.body).toEqual({ statusCode: 404, errorCode: 4040, errorMessage: 'No such resource or endpoint.' });
    }
  });

  it('leaves the admin API and other methods to the framework', async () => {
    await t.http().get('/admin/v1/users').expect(401);
    await t.http().get('/admin/V1/users').expect(401);
    const post = await t.http().post('/admin/').send({}).expect(404);
    expect(post.body.errorCode).toBe(4040);
  });

  it('serves Swagger UI at <base>/@docs/ui from the package, with its start script', async () => {
    const page = await t.http().get(`${t.base}/@docs/ui`).expect(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<script src="ui/swagger-ui-bundle.js"></script><script src="ui/swagger-init.js"></script>');
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
    const bundle = await t.http().get(`${t.base}/@docs/ui/swagger-ui-bundle.js`).expect(200);
    expect(bundle.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(bundle.headers.etag).toEqual(expect.any(String));
    await t.http().get(`${t.base}/@docs/ui/swagger-ui.css`).expect(200).expect('content-type', 'text/css; charset=utf-8');
    const init = await t.http().get(`${t.base}/@docs/ui/swagger-init.js`).expect(200);
    expect(init.text).toContain('SwaggerUIBundle(');
    // Another API's base is not served.
    await t.http().get('/rest/other/demo/v1/@docs/ui').expect(404);
  });
});
