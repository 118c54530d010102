import { API_HOST, apiAs, oneRow, type Api } from './support/api.js';
import { shelfSlotsProject } from './fixtures/shelf-slots/shelf-slots-project.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

type Row = Record<string, unknown> & { '@metadata': { href: string; checksum: string } };

/** The key segment as the contract spells it: each part URL-encoded (`~` included), joined with `~`. */
function keyPath(...parts: Array<string | number>): string {
  return parts.map((part) => encodeURIComponent(String(part)).replaceAll('~', '%7E')).join('~');
}

const AWKWARD = { warehouse: 'North~East / 2', aisle: 'A 1/b ~', slot: 7 };
const PERCENT = { warehouse: 'Rack 100%', aisle: '%7E', slot: 1 };
const PLAIN = { warehouse: 'main', aisle: 'a1', slot: 3 };

describeEachTarget('composite keys in URLs', (target) => {
  let t: TestApp;
  let api: Api;

  suiteApp(target, { project: shelfSlotsProject }, async (app) => {
    t = app;
    api = await apiAs(t, 'demo');
    await api
      .post('/shelf_slot', [
        { ...AWKWARD, label: 'awkward', capacity: 10 },
        { ...PERCENT, label: 'percent', capacity: 5 },
        { ...PLAIN, label: 'plain', capacity: 1 },
      ])
      .expect(201);
  });

  const url = (key: { warehouse: string; aisle: string; slot: number }): string =>
    `/shelf_slot/${keyPath(key.warehouse, key.aisle, key.slot)}`;

  const one = (path: string): Promise<Row> => oneRow<Row>(api, path);

  it('gets a row by its three key parts, "~", "/", "%" and spaces inside parts included', async () => {
    for (const key of [AWKWARD, PERCENT, PLAIN]) {
      const row = await one(url(key));
      expect(row).toMatchObject(key);
      expect(row['@metadata'].href).toBe(`http://${API_HOST}${t.base}${url(key)}`);
    }
  });

  it('hands out hrefs that lead back to the same row', async () => {
    const list = await api.get('/shelf_slot').expect(200);
    expect(list.body).toHaveLength(3);
    for (const row of list.body as Row[]) {
      const again = await api.getUrl(row['@metadata'].href).expect(200);
      expect(again.body).toEqual([row]);
    }
  });

  it('answers an empty array for a key that does not exist, and 400 / 4000 for a wrong number of parts', async () => {
    expect((await api.get(`/shelf_slot/${keyPath('North', 'East / 2', 7)}`).expect(200)).body).toEqual([]);
    for (const bad of [keyPath('main', 'a1'), `${keyPath('main', 'a1', 3)}~x`, keyPath('main', 'a1', 'three')]) {
      const res = await api.get(`/shelf_slot/${bad}`).expect(400);
      expect(res.body.errorCode).toBe(4000);
    }
  });

  it('updates by composite key with the checksum, and by href on the collection', async () => {
    const before = await one(url(AWKWARD));
    const res = await api.put(url(AWKWARD), { '@metadata': { checksum: before['@metadata'].checksum }, label: 'moved' }).expect(200);
    expect(res.body.txsummary).toHaveLength(1);
    expect(res.body.txsummary[0]).toMatchObject({
      ...AWKWARD,
      label: 'moved',
      '@metadata': { href: before['@metadata'].href, verb: 'UPDATE' },
    });

    const after = await one(url(AWKWARD));
    await api
      .put('/shelf_slot', [{ '@metadata': { href: after['@metadata'].href, checksum: after['@metadata'].checksum }, capacity: 12.5 }])
      .expect(200);
    expect(await one(url(AWKWARD))).toMatchObject({ label: 'moved', capacity: 12.5 });
  });

  it('refuses a change of a key part on update (400 / 4003)', async () => {
    const res = await api.put(url(PLAIN), { '@metadata': { checksum: 'override' }, slot: 4 }).expect(400);
    expect(res.body.errorCode).toBe(4003);
  });

  it('deletes by composite key with the checksum; a second delete is 404 / 4041', async () => {
    const row = await one(url(PERCENT));
    const res = await api.delete(`${url(PERCENT)}?checksum=${encodeURIComponent(row['@metadata'].checksum)}`).expect(200);
    expect(res.body.txsummary).toEqual([expect.objectContaining({ ...PERCENT, '@metadata': expect.objectContaining({ verb: 'DELETE' }) })]);
    expect((await api.get(url(PERCENT)).expect(200)).body).toEqual([]);
    const again = await api.delete(`${url(PERCENT)}?checksum=override`).expect(404);
    expect(again.body.errorCode).toBe(4041);
  });
});
