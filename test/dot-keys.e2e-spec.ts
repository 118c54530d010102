import type { Test } from 'supertest';
import { valueKindsProject } from './fixtures/value-kinds/value-kinds-project.js';
import { API_HOST, apiWithKey, type Api } from './support/api.js';
import { authHeader, loginAs } from './support/auth.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

type Row = Record<string, unknown> & { '@metadata': { href: string; checksum: string } };

/**
 * What curl and most HTTP libraries do to a path before sending it (RFC 3986, 5.2.4): a
 * segment that is literally "." is dropped, ".." drops the one before it too. A %2E is data.
 */
function removeDotSegments(path: string): string {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return out.join('/');
}

/** The path of an href (taken as text: WHATWG's URL would remove %2E segments too), as a dot-removing client sends it. */
const asSent = (href: string): string => removeDotSegments(href.replace(/^https?:\/\/[^/]+/, ''));

/**
 * Keys "." and ".." are valid text, but as a path segment of their own a client's dot-segment
 * removal turned their hrefs into the collection's URL or its parent's: the rows could not be
 * read, updated or deleted by href.
 */
describeEachTarget('keys made of dots', (target) => {
  let t: TestApp;
  let api: Api;
  let apikey: string;

  suiteApp(target, { project: valueKindsProject }, async (app) => {
    t = app;
    apikey = await loginAs(t, 'demo', 'Password1');
    api = apiWithKey(t, apikey);
  });

  /** A GET of a path sent exactly as given (api.getUrl parses the URL, which would remove dot segments). */
  const getPath = (path: string): Test =>
    t
      .http()
      .get(path)
      .set('Host', API_HOST)
      .set(...authHeader(apikey));

  it('hands out hrefs that survive dot-segment removal and lead back to the row', async () => {
    const res = await api
      .post('/sample', [
        { code: '.', label: 'one' },
        { code: '..', label: 'two' },
        { code: '...', label: 'three' },
      ])
      .expect(201);
    const hrefs = (res.body.txsummary as Row[]).map((row) => row['@metadata'].href);
    expect(hrefs).toEqual([
      `http://${API_HOST}${t.base}/sample/%2E`,
      `http://${API_HOST}${t.base}/sample/%2E%2E`,
      `http://${API_HOST}${t.base}/sample/...`,
    ]);
    for (const [i, href] of hrefs.entries()) {
      const read = await getPath(asSent(href)).expect(200);
      expect(read.body).toHaveLength(1);
      expect(read.body[0].code).toBe(['.', '..', '...'][i]);
    }
  });

  it('finds, updates and deletes such a row by its encoded key, %2E%2E and %2e%2e alike', async () => {
    const [row] = (await api.get('/sample/%2e%2e').expect(200)).body as Row[];
    expect(row!.code).toBe('..');
    const updated = await api
      .put('/sample', [{ '@metadata': { href: row!['@metadata'].href, checksum: row!['@metadata'].checksum }, label: 'y' }])
      .expect(200);
    expect(updated.body.txsummary[0]).toMatchObject({ code: '..', label: 'y' });
    await api.delete(`/sample/%2E%2E?checksum=${encodeURIComponent(updated.body.txsummary[0]['@metadata'].checksum)}`).expect(200);
    expect((await api.get('/sample/%2E%2E').expect(200)).body).toEqual([]);
    // The collection and "." are untouched.
    expect((await api.get('/sample/%2E').expect(200)).body).toHaveLength(1);
  });

  it('encodes dot parts of a composite key as well', async () => {
    const res = await api.post('/shelf_slot', { warehouse: '..', aisle: '.', slot: 1, label: 'dots' }).expect(201);
    const href = res.body.txsummary[0]['@metadata'].href as string;
    expect(href).toBe(`http://${API_HOST}${t.base}/shelf_slot/%2E%2E~%2E~1`);
    expect((await api.getUrl(href).expect(200)).body[0]).toMatchObject({ warehouse: '..', aisle: '.', slot: 1 });
  });
});
