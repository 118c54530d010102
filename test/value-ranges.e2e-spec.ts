import type { Response } from 'supertest';
import { teamsProject } from './fixtures/teams/teams-project.js';
import { valueKindsProject } from './fixtures/value-kinds/value-kinds-project.js';
import { apiAs, suiteAppAs, type Api } from './support/api.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

/** 400 / 4000 naming the column: the same answer on every database, never what one database makes of the value. */
function expectRefused(res: Response, column: string): void {
  expect({ status: res.status, errorCode: res.body.errorCode }).toEqual({ status: 400, errorCode: 4000 });
  expect(res.body.errorMessage).toContain(`"${column}"`);
}

describeEachTarget('values held to their column', (target) => {
  let t: TestApp;
  let api: Api;
  let serial = 0;

  suiteApp(target, { project: valueKindsProject }, async (app) => {
    t = app;
    api = await apiAs(t, 'demo');
  });

  /** Inserts a sample with a fresh key and the given columns. */
  const insert = (values: Record<string, unknown>): Promise<Response> => api.post('/sample', { code: `s${++serial}`, ...values });

  /** Inserts, then reads the row back: what the database kept must be what the insert answered. */
  async function stored(values: Record<string, unknown>): Promise<Record<string, unknown> & { code: string }> {
    const res = await insert(values);
    expect(res.status).toBe(201);
    const [written] = res.body.txsummary;
    const [read] = (await api.get(`/sample/${encodeURIComponent(written.code)}`).expect(200)).body;
    expect(read).toEqual({ ...written, '@metadata': { href: written['@metadata'].href, checksum: written['@metadata'].checksum } });
    return read;
  }

  describe('dates', () => {
    it.each([
      '2026-02-30',
      '2026-02-29',
      '1900-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '2026-01-32',
      '0999-12-31',
      '0000-01-01',
      '2026-1-1',
      '2026-01-01T00:00:00Z',
      ' 2026-01-01',
      20260101,
    ])('refuses %j', async (day) => {
      expectRefused(await insert({ day }), 'day');
    });

    it.each(['2024-02-29', '2000-02-29', '1000-01-01', '9999-12-31', '2026-12-31'])('stores %s as written', async (day) => {
      expect((await stored({ day })).day).toBe(day);
    });
  });

  describe('date-times', () => {
    it.each([
      '2026-02-30T10:00:00Z',
      '2025-02-29T10:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T23:59:60Z',
      '2026-01-01T12:60:00Z',
      '2026-01-01T12:00:00+15:00',
      '2026-01-01T12:00:00+02:60',
      '2026-01-01T12:00:00.1234567890Z',
      '9999-12-31T23:30:00-01:00',
      '1000-01-01T00:30:00+01:00',
      '2026-01-01',
      '2026-01-01T12',
    ])('refuses %j', async (at) => {
      expectRefused(await insert({ at }), 'at');
    });

    it.each([
      ['2024-02-29T23:59:59.999Z', '2024-02-29T23:59:59.999Z'],
      ['2026-03-01T01:30:00+02:00', '2026-02-28T23:30:00.000Z'],
      ['2024-03-01T01:30:00+0200', '2024-02-29T23:30:00.000Z'],
      ['2026-12-31T23:00:00-05:30', '2027-01-01T04:30:00.000Z'],
      ['2026-01-01 12:00', '2026-01-01T12:00:00.000Z'],
      ['2026-01-01T12:00:00.1239Z', '2026-01-01T12:00:00.123Z'],
      ['2026-01-01T12:00:00.5', '2026-01-01T12:00:00.500Z'],
    ])('stores %s as %s', async (at, expected) => {
      expect((await stored({ at })).at).toBe(expected);
    });

    it('keeps whole seconds in a column declared without fractions, on every database alike', async () => {
      expect((await stored({ stamp: '2026-01-01T12:00:00.600Z' })).stamp).toBe('2026-01-01T12:00:00.000Z');
      expect((await stored({ stamp: '2026-01-01T12:00:59.999+01:00' })).stamp).toBe('2026-01-01T11:00:59.000Z');
    });
  });

  describe('integers', () => {
    it.each([
      ['qty', 2_147_483_648],
      ['qty', -2_147_483_649],
      ['qty', 3_000_000_000],
      ['qty', '3000000000'],
      ['qty', 1.5],
      ['qty', '12.0'],
      ['small_qty', 32_768],
      ['small_qty', -32_769],
      ['big_qty', '9007199254740993'],
      ['big_qty', -9_007_199_254_740_992],
      ['big_qty', 1e300],
    ])('refuses %s = %j', async (column, value) => {
      expectRefused(await insert({ [column]: value }), column);
    });

    it.each([
      ['qty', 2_147_483_647, 2_147_483_647],
      ['qty', -2_147_483_648, -2_147_483_648],
      ['qty', '-12', -12],
      ['small_qty', 32_767, 32_767],
      ['small_qty', -32_768, -32_768],
      ['big_qty', 3_000_000_000, 3_000_000_000],
      ['big_qty', '9007199254740991', 9_007_199_254_740_991],
      ['big_qty', -9_007_199_254_740_991, -9_007_199_254_740_991],
    ])('stores %s = %j', async (column, value, expected) => {
      expect((await stored({ [column]: value }))[column]).toBe(expected);
    });

    it("refuses the issue's line item of 3 000 000 000 on every database", async () => {
      const [order] = (await api.get('/purchaseorder?pagesize=1').expect(200)).body;
      expectRefused(
        await api.post('/lineitem', { order_number: order.order_number, product_number: 1, qty_ordered: 3_000_000_000 }),
        'qty_ordered',
      );
    });
  });

  describe('decimals', () => {
    it.each([
      ['price', '1000000000000000'],
      ['price', -1_000_000_000_000_000],
      ['price', '123456789012345678.5'],
      ['price', 1.23456],
      ['price', '0.00001'],
      ['ratio', 1000],
      ['ratio', '-999.999'],
      ['whole', 1_234_567],
      ['whole', 1.5],
    ])('refuses %s = %j', async (column, value) => {
      expectRefused(await insert({ [column]: value }), column);
    });

    it.each([
      ['price', '999999999999999.9999'],
      ['price', '-999999999999999'],
      ['price', '1.23450'],
      ['ratio', 999.99],
      ['ratio', '-999.99'],
      ['whole', -999_999],
      ['whole', '12.000'],
    ])('stores %s = %j', async (column, value) => {
      const row = await stored({ [column]: value });
      expect(row[column]).toBe(Number(value));
    });
  });

  describe('updates', () => {
    it('holds a PUT to the same checks, by key and by href, and leaves the row as it was', async () => {
      const row = await stored({ day: '2024-02-29', qty: 1 });
      const path = `/sample/${row.code}`;
      expectRefused(await api.put(path, { '@metadata': { checksum: 'override' }, day: '2026-02-29' }), 'day');
      expectRefused(await api.put(path, { '@metadata': { checksum: 'override' }, qty: 2_147_483_648 }), 'qty');
      const href = (row['@metadata'] as { href: string }).href;
      expectRefused(await api.put('/sample', [{ '@metadata': { href, checksum: 'override' }, at: '2026-01-01T24:00:00Z' }]), 'at');
      expect((await api.get(path).expect(200)).body).toEqual([row]);
    });
  });

  describe('text', () => {
    it('counts characters, not bytes or UTF-16 units, on every database', async () => {
      expect((await stored({ label: '😀😀😀😀😀' })).label).toBe('😀😀😀😀😀');
      expect((await stored({ label: 'ééééé' })).label).toBe('ééééé');
      expectRefused(await insert({ label: '😀😀😀😀😀😀' }), 'label');
      expectRefused(await insert({ label: 'abcdef' }), 'label');
      expectRefused(await api.post('/sample', { code: 'c'.repeat(13) }), 'code');
    });
  });

  describe('empty keys', () => {
    it('refuses an empty string as a key, alone or as a part, on insert', async () => {
      expectRefused(await api.post('/sample', { code: '' }), 'code');
      expectRefused(await api.post('/customer', { name: '', credit_limit: 1 }), 'name');
      expectRefused(await api.post('/shelf_slot', { warehouse: 'main', aisle: '', slot: 1 }), 'aisle');
      const check = await api.get(`/shelf_slot?filter=${encodeURIComponent("aisle = ''")}`).expect(200);
      expect(check.body).toEqual([]);
    });

    it('refuses an empty key part in a URL, and an href that names no key', async () => {
      expectRefused(await api.get('/shelf_slot/~a1~3'), 'warehouse');
      expectRefused(await api.get('/shelf_slot/main~~3'), 'aisle');
      expectRefused(await api.delete('/shelf_slot/main~~3?checksum=override'), 'aisle');
      expectRefused(await api.put('/shelf_slot/main~~3', { '@metadata': { checksum: 'override' }, label: 'x' }), 'aisle');
      expectRefused(
        await api.put('/customer', [{ '@metadata': { href: `http://x${t.base}/customer/`, checksum: 'override' }, credit_limit: 2 }]),
        'name',
      );
      expectRefused(await api.put('/customer', [{ '@metadata': { checksum: 'override' }, name: '', credit_limit: 2 }]), 'name');
    });
  });

  describe('filters', () => {
    it.each([
      ["day = '2026-02-30'", 'day'],
      ["day = '0000-01-01'", 'day'],
      ["day < '2026-02-29'", 'day'],
      ["at > '2026-01-01 24:00:00'", 'at'],
      ["at = '2026-02-30T10:00:00Z'", 'at'],
    ])('refuses %s with 400 / 4000', async (filter, column) => {
      expectRefused(await api.get(`/sample?filter=${encodeURIComponent(filter)}`), column);
    });

    it.each(["less(day:'2026-02-29')", "greater(at:'0000-12-31 10:00')"])('refuses the sysfilter %s with 400 / 4000', async (sysfilter) => {
      const res = await api.get(`/sample?sysfilter=${encodeURIComponent(sysfilter)}`);
      expect({ status: res.status, errorCode: res.body.errorCode }).toEqual({ status: 400, errorCode: 4000 });
    });

    it("compares with numbers past a column's width like any other number: no row, no error", async () => {
      const { code } = await stored({ qty: 7, small_qty: 7 });
      for (const [filter, rows] of [
        ['qty = 3000000000', 0],
        ['small_qty > 40000', 0],
        ['small_qty < -40000', 0],
        [`qty < 3000000000 and code = '${code}'`, 1],
      ] as const) {
        const res = await api.get(`/sample?filter=${encodeURIComponent(filter)}`).expect(200);
        expect(res.body).toHaveLength(rows);
      }
    });
  });

  describe('a table narrower than its entity', () => {
    it('answers 400 / 4000 when the database refuses a value that passed the entity, never a 500', async () => {
      const res = await api.post('/drifted', { memo: 'longer than four' });
      if (target.database === 'sqlite') {
        expect(res.status).toBe(201); // SQLite keeps any length
        return;
      }
      expect(res.body).toEqual({ statusCode: 400, errorCode: 4000, errorMessage: 'A value does not fit its column in the database.' });
    });
  });

  describe('text in filters', () => {
    it('compares with text longer than the column like any other text: no row, no error', async () => {
      await stored({ label: 'abcde' });
      for (const filter of ["label = 'abcdefgh'", `code = '${'c'.repeat(40)}'`, "label like 'abcde_%'"]) {
        expect((await api.get(`/sample?filter=${encodeURIComponent(filter)}`).expect(200)).body).toEqual([]);
      }
      expect((await api.get(`/sample?sysfilter=${encodeURIComponent("equal(label:'abcdefgh')")}`).expect(200)).body).toEqual([]);
    });
  });

  describe('values computed by rules', () => {
    it('refuses a formula result past its decimal column, naming it', async () => {
      const product = (await api.post('/product', { name: 'Costly', price: 999_999_999 }).expect(201)).body.txsummary[0];
      const [order] = (await api.get('/purchaseorder?pagesize=1').expect(200)).body;
      const res = await api.post('/lineitem', {
        order_number: order.order_number,
        product_number: product.product_number,
        qty_ordered: 2_000_000,
      });
      expectRefused(res, 'amount');
      expect(res.body.errorMessage).toMatch(/lineitem/);
    });

    it('refuses a sum past its decimal column, naming it, and rolls back the whole request', async () => {
      await api.post('/customer', { name: 'Deep Pockets', credit_limit: '999999999999999' }).expect(201);
      const product = (await api.post('/product', { name: 'Pricey', price: '600000000000000' }).expect(201)).body.txsummary[0];
      const order = (await api.post('/purchaseorder', { customer_name: 'Deep Pockets' }).expect(201)).body.txsummary[0];
      const item = { order_number: order.order_number, product_number: product.product_number, qty_ordered: 1 };
      const res = await api.post('/lineitem', [item, item]);
      expectRefused(res, 'amount_total');
      expect(res.body.errorMessage).toMatch(/purchaseorder/);
      const items = await api.get(`/lineitem?filter=${encodeURIComponent(`order_number = ${order.order_number}`)}`).expect(200);
      expect(items.body).toEqual([]);
    });
  });
});

describeEachTarget('values computed by the rules of the teams project', (target) => {
  let api: Api;
  suiteAppAs(
    target,
    'demo',
    (_app, client) => {
      api = client;
    },
    { project: teamsProject },
  );

  it('refuses a sum past its 32-bit column, naming it, where SQLite would have stored it', async () => {
    const team = (await api.post('/team', { name: 'Giants' }).expect(201)).body.txsummary[0];
    const member = { team_id: team.team_id, age: 2_000_000_000 };
    await api.post('/member', member).expect(201);
    const res = await api.post('/member', member);
    expectRefused(res, 'total_age');
    expect(res.body.errorMessage).toMatch(/of team/);
    const [after] = (await api.get(`/team/${team.team_id}`).expect(200)).body;
    expect(after).toMatchObject({ active_members: 1, total_age: 2_000_000_000 });
  });

  it('holds what an early event writes to the column length, saying the rules made it too long', async () => {
    const team = (await api.post('/team', { name: 'Strassen' }).expect(201)).body.txsummary[0];
    // 30 characters as sent; the event upper-cases them, and each ß becomes SS: 60.
    const res = await api.post('/member', { team_id: team.team_id, age: 30, nickname: 'ß'.repeat(30) });
    expectRefused(res, 'nickname');
    expect(res.body.errorMessage).toBe('The value the rules computed for column "nickname" of member is longer than 30 characters.');
  });
});
