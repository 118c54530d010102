import { apiAs, type Api } from './support/api.js';
import { committedBoxes, shelvesProject } from './fixtures/shelves/shelves-project.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

type Row = Record<string, unknown> & { '@metadata': { resource: string; verb: string } };
const of = (summary: Row[], table: string): Row[] => summary.filter((r) => r['@metadata'].resource.replace(/^main:/, '') === table);

/** Issue 29 items 2, 4 and 5: managed parents, events that change other rows, per-row commit events. */
describeEachTarget('rule context, managed parents and commit-row events', (target) => {
  let t: TestApp;
  let api: Api;

  suiteApp(target, { project: shelvesProject }, async (app) => {
    t = app;
    api = await apiAs(t, 'demo');
  });

  it('a box naming a shelf that does not exist yet inserts the shelf, with its sums', async () => {
    const res = await api.post('/box', { shelf_code: 'A1', qty: 4 }).expect(201);
    const summary = res.body.txsummary as Row[];
    expect(of(summary, 'shelf')).toMatchObject([{ code: 'A1', box_count: 1, total_qty: 4, '@metadata': { verb: 'INSERT' } }]);
    await api.post('/box', { shelf_code: 'A1', qty: 3 }).expect(201);
    expect((await api.get('/shelf/A1').expect(200)).body[0]).toMatchObject({ box_count: 2, total_qty: 7 });
  });

  it('concurrent boxes for one new shelf insert it once and count every box', async () => {
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map((qty) => api.post('/box', { shelf_code: 'NEW', qty })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    expect((await api.get('/shelf/NEW').expect(200)).body[0]).toMatchObject({ box_count: 6, total_qty: 21 });
  });

  it('an event updates another row through its rules, with the system rights, and the row shows in the txsummary', async () => {
    await api.post('/tally', { name: 'bumps' }).expect(201);
    const res = await api.post('/box', { shelf_code: 'B', qty: 1, label: 'bump' }).expect(201);
    expect(of(res.body.txsummary as Row[], 'tally')).toMatchObject([{ name: 'bumps', counter: 1, '@metadata': { verb: 'UPDATE' } }]);
    // A caller who may not touch tallies: the event's write is the system's.
    const boxer = await apiAs(t, 'boxer');
    await boxer.post('/box', { shelf_code: 'B', qty: 1, label: 'bump' }).expect(201);
    await boxer.post('/box', { shelf_code: 'B', qty: 1, label: 'bump' }).expect(201);
    expect((await api.get('/tally/bumps').expect(200)).body[0]).toMatchObject({ counter: 3 });
    // The tally's constraint runs on the event's update: the fourth bump is refused, and nothing stays.
    const refused = await api.post('/box', { shelf_code: 'B', qty: 1, label: 'bump' }).expect(422);
    expect(refused.body).toMatchObject({ errorCode: 4220 });
    expect((await api.get('/shelf/B').expect(200)).body[0]).toMatchObject({ box_count: 3 });
  });

  it('an event deletes and reads other rows', async () => {
    await api.post('/tally', [{ name: 'doomed-1' }, { name: 'doomed-2' }, { name: 'kept' }]).expect(201);
    const res = await api.post('/box', { shelf_code: 'C', qty: 2, label: 'drop' }).expect(201);
    expect(of(res.body.txsummary as Row[], 'tally').map((r) => [r.name, r['@metadata'].verb])).toEqual([
      ['doomed-2', 'DELETE'],
      ['doomed-1', 'DELETE'],
    ]);
    await api.get('/tally/kept').expect(200);
    const read = await api.post('/box', { shelf_code: 'C', qty: 2, label: 'read' }).expect(201);
    const box = of(read.body.txsummary as Row[], 'box')[0]!;
    expect(of(read.body.txsummary as Row[], 'tally')).toMatchObject([{ name: `seen-${box.box_id as number}`, counter: 2 }]);
  });

  it('an event that writes in a loop stops at the depth limit with 500 / 5001, and nothing is written', async () => {
    const res = await api.post('/box', { shelf_code: 'LOOP', qty: 1, label: 'loop' }).expect(500);
    expect(res.body).toMatchObject({ errorCode: 5001 });
    expect((await api.get('/shelf/LOOP').expect(200)).body).toEqual([]);
    expect((await api.get(`/box?filter=${encodeURIComponent("shelf_code = 'LOOP'")}`).expect(200)).body).toEqual([]);
  });

  it('commit-row events run per row after every row is processed, with generated keys', async () => {
    committedBoxes.length = 0;
    const res = await api.post('/box', [
      { shelf_code: 'D', qty: 1 },
      { shelf_code: 'D', qty: 2 },
    ]);
    expect(res.status).toBe(201);
    const ids = of(res.body.txsummary as Row[], 'box').map((r) => r.box_id);
    // Both see the shelf as the whole transaction left it: two boxes.
    expect(committedBoxes).toEqual(ids.map((box_id) => ({ verb: 'INSERT', box_id, shelf_boxes: 2 })));
  });
});
