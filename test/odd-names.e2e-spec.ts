import { apiAs, type Api } from './support/api.js';
import { suiteApp, testTargets, type TestApp } from './support/test-app.js';
import { oddNamesProject } from './fixtures/odd-names/odd-names-project.js';
import { SLASHED, SPACED } from './fixtures/odd-names/odd-names.entity.js';

type Row = Record<string, unknown> & { '@metadata': { href: string; checksum: string; links?: Array<{ href: string; rel: string }> } };

/** Every href, next_batch and link an answer holds. */
function urlsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(urlsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([name, v]) =>
    typeof v === 'string' && (name === 'href' || name === 'next_batch') ? [v] : urlsIn(v),
  );
}

/** Each path segment percent-encoded: nothing a URL may not hold as it is, no slash inside a name. */
const ENCODED_URL = /^http:\/\/[^\s/]+(\/[A-Za-z0-9\-._~!$&'()*+,;=:@%]*)*(\?[^\s]*)?$/;

const slashed = `/${encodeURIComponent(SLASHED)}`;
const spaced = `/${encodeURIComponent(SPACED)}`;

// SQLite on both adapters: the names are the same on every database; the adapters are what decode a path.
for (const target of testTargets({ adapters: 'both' }).filter((t) => t.database === 'sqlite'))
  describe(`table names in URLs [${target.name}]`, () => {
    let t: TestApp;
    let api: Api;
    suiteApp(target, { project: oddNamesProject }, async (app) => {
      t = app;
      api = await apiAs(t, 'demo');
    });

    it('percent-encodes the table in every href: a table named a*/b and one with a line feed round-trip through their own', async () => {
      const parent = await api.post(slashed, [{ name: 'first' }, { name: 'second' }]).expect(201);
      const child = await api.post(spaced, { code: 'x y/z', parent_id: 1 }).expect(201);
      const hrefs = urlsIn([parent.body, child.body]);
      expect(hrefs).toEqual([
        `http://tessera.test${t.base}/a*%2Fb/1`,
        `http://tessera.test${t.base}/a*%2Fb/2`,
        `http://tessera.test${t.base}/line%0Afeed%20%26%20space/x%20y%2Fz`,
      ]);
      const [first] = (await api.getUrl(hrefs[0]!).expect(200)).body as Row[];
      expect(first).toMatchObject({ id: 1, name: 'first' });
      const [read] = (await api.getUrl(hrefs[2]!).expect(200)).body as Row[];
      expect(read).toMatchObject({ code: 'x y/z', parent_id: 1, '@metadata': { href: hrefs[2] } });
    });

    it('percent-encodes the table in links and next_batch, and each one leads where it says', async () => {
      const page = (await api.get(`${slashed}?pagesize=1`).expect(200)).body as Array<Row | { '@metadata': { next_batch: string } }>;
      const [parent, more] = page as [Row, { '@metadata': { next_batch: string } }];
      for (const url of urlsIn(page)) expect(url).toMatch(ENCODED_URL);
      const [second] = (await api.getUrl(more['@metadata'].next_batch).expect(200)).body as Row[];
      expect(second).toMatchObject({ id: 2, name: 'second' });

      const children = parent['@metadata'].links!.find((link) => link.rel === 'children')!;
      expect(children.href).toMatch(ENCODED_URL);
      const [child] = (await api.getUrl(children.href).expect(200)).body as Row[];
      expect(child).toMatchObject({ code: 'x y/z' });
      const toParent = child!['@metadata'].links!.find((link) => link.rel === 'parent')!;
      expect(toParent.href).toBe(parent['@metadata'].href);
    });

    it('names the tables encoded in @resources and @tables hrefs', async () => {
      const resources = (await api.get('/@resources').expect(200)).body as Array<Record<string, unknown>>;
      const tables = (await api.get('/@tables').expect(200)).body as Array<Record<string, unknown>>;
      for (const url of urlsIn([resources, tables])) expect(url).toMatch(ENCODED_URL);
      const href = (resources.find((r) => r.name === SLASHED)!['@metadata'] as { href: string }).href;
      expect((await api.getUrl(href).expect(200)).body).toHaveLength(2);
    });

    // The document writer (src/documents/write/object-checks.ts, keyOf) looks for the table's name
    // in an href as it is, not percent-encoded: it finds `/a*/b/` in the old hrefs, not in these.
    it('takes back an object that names its row by its own href', async () => {
      const [posted] = (await api.post(slashed, { name: 'to rename' }).expect(201)).body.txsummary as Row[];
      const [row] = (await api.getUrl(posted!['@metadata'].href).expect(200)).body as Row[];
      await api.put(slashed, { '@metadata': row!['@metadata'], name: 'renamed' }).expect(200);
    });
  });
