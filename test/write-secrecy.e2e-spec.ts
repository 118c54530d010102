import type { ProjectDefinition } from '../src/project-definition.js';
import { apiAs, apiWithRoles, type Api } from './support/api.js';
import { demoProjectWithRoles } from './support/demo-project.js';
import { teamsProject } from './fixtures/teams/teams-project.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

type Row = Record<string, unknown>;
/** A line item row: its key goes into URLs. */
type LineItem = Row & { lineitem_id: number };

/** The demo roles plus writers who cannot read customers, or only some, and one whose line items are filtered on their own columns. */
const project = demoProjectWithRoles(
  [
    {
      name: 'Order clerk',
      defaultAccess: 'NONE',
      resources: { purchaseorder: { access: ['ALL'] }, lineitem: { access: ['ALL'] }, product: { access: ['READ'] } },
    },
    {
      name: 'Own customer reader',
      defaultAccess: 'NONE',
      resources: { customer: { access: ['READ'], rowFilter: 'name = @{own_customer}' } },
    },
    {
      name: 'Small items',
      defaultAccess: 'NONE',
      resources: { lineitem: { access: ['INSERT', 'UPDATE'], rowFilter: 'qty_ordered < 10' } },
    },
    { name: 'Debtors', defaultAccess: 'NONE', resources: { customer: { access: ['READ'], rowFilter: 'balance >= 5000' } } },
    { name: 'Item remover', defaultAccess: 'NONE', resources: { lineitem: { access: ['DELETE'] } } },
    { name: 'Tiny item reader', defaultAccess: 'NONE', resources: { lineitem: { access: ['READ'], rowFilter: 'qty_ordered < 3' } } },
  ],
  ['own_customer'],
);

const q = (text: string): string => encodeURIComponent(text);
const MISSING_ORDER = 987654;

describeEachTarget('writes reveal nothing the caller cannot read', (target) => {
  let t: TestApp;
  let sam: Api;
  let demo: Api;
  let samsAlphaOrder: number;
  let patsOrder: number;

  suiteApp(target, { project }, async (app) => {
    t = app;
    sam = await apiAs(t, 'sam');
    demo = await apiAs(t, 'demo');
    const orders = (
      await demo
        .get(`/purchaseorder?pagesize=100&filter=${q("salesrep_id = 1 and customer_name = 'Alpha and Sons' and paid = false")}`)
        .expect(200)
    ).body as Row[];
    samsAlphaOrder = orders[0]!.order_number as number;
    patsOrder = ((await demo.get(`/purchaseorder?filter=${q('salesrep_id = 2')}`).expect(200)).body as Row[])[0]!.order_number as number;
  });

  const bigItem = (order: number): Row => ({ order_number: order, product_number: 3, qty_ordered: 100 });
  const lineItemCount = async (): Promise<number> => ((await demo.get('/lineitem?pagesize=5000').expect(200)).body as Row[]).length;

  const summary = (res: { body: Row }): Row[] => res.body.txsummary as Row[];

  function expectError(res: { status: number; body: Row }, status: number, errorCode: number): void {
    expect({ status: res.status, errorCode: res.body.errorCode }).toEqual({ status, errorCode });
  }

  describe('rule messages', () => {
    it('show a Sales rep "(hidden)" for a credit limit it may not read, and for every value next to it', async () => {
      const res = await sam.post('/lineitem', bigItem(samsAlphaOrder));
      expectError(res, 422, 4220);
      // The balance shown beside the hidden limit would bracket it: it is hidden too.
      expect(res.body.errorMessage).toBe("Customer (hidden)'s balance (hidden) exceeds their credit limit (hidden)");
      // Full access reads the credit limit, and sees it.
      const full = await demo.post('/lineitem', bigItem(samsAlphaOrder));
      expect(full.body.errorMessage).toMatch(/exceeds their credit limit 9000$/);
    });

    it('do not pin a hidden limit to one line item in an array of many small ones', async () => {
      const items = Array.from({ length: 60 }, () => ({ order_number: samsAlphaOrder, product_number: 1, qty_ordered: 20 }));
      const res = await sam.post('/lineitem', items);
      expectError(res, 422, 4220);
      expect(res.body.errorMessage).toBe("Customer (hidden)'s balance (hidden) exceeds their credit limit (hidden)");
      expect(res.body.errorMessage).not.toMatch(/\d/);
    });

    it('hide every placeholder, and the key, of a row the caller cannot read at all', async () => {
      const clerk = await apiWithRoles(t, ['Order clerk']);
      const res = await clerk.post('/lineitem', bigItem(samsAlphaOrder));
      expectError(res, 422, 4220);
      expect(res.body.errorMessage).toBe("Customer (hidden)'s balance (hidden) exceeds their credit limit (hidden)");
    });

    it('show the values of a row only where a role admitting that row shows them (row filters with globals)', async () => {
      const reader = await apiWithRoles(t, ['Order clerk', 'Own customer reader'], { own_customer: 'Alpha and Sons' });
      expect((await reader.post('/lineitem', bigItem(samsAlphaOrder))).body.errorMessage).toMatch(
        /^Customer Alpha and Sons's balance [\d.]+ exceeds their credit limit 9000$/,
      );
      const other = await apiWithRoles(t, ['Order clerk', 'Own customer reader'], { own_customer: 'Bravo Supply' });
      expect((await other.post('/lineitem', bigItem(samsAlphaOrder))).body.errorMessage).toBe(
        "Customer (hidden)'s balance (hidden) exceeds their credit limit (hidden)",
      );
    });
  });

  describe('write results (txsummary)', () => {
    const meta = (row: Row): { href: string; resource: string; verb: string } =>
      row['@metadata'] as { href: string; resource: string; verb: string };
    const columnsOf = (row: Row): string[] =>
      Object.keys(row)
        .filter((k) => k !== '@metadata')
        .sort();
    const customerEntry = (res: { body: Row }, name: string): Row | undefined =>
      summary(res).find((r) => meta(r).resource === 'main:customer' && r.name === name);

    /** Every summary row shows exactly the columns a GET of it right after shows; a row the GET does not return is not there. */
    async function expectSameAsGet(api: Api, res: { body: Row }): Promise<void> {
      for (const row of summary(res)) {
        if (meta(row).verb === 'DELETE') continue;
        const [got] = (await api.getUrl(meta(row).href).expect(200)).body as Row[];
        expect({ href: meta(row).href, columns: got ? columnsOf(got) : 'not readable' }).toEqual({
          href: meta(row).href,
          columns: columnsOf(row),
        });
      }
    }

    it('shows a row only with the columns of the grants whose row filters admit it', async () => {
      const rep = await apiWithRoles(t, ['Sales rep', 'Own customer reader'], { employee_id: '1', own_customer: 'Alpha and Sons' });
      const order = await rep.post('/purchaseorder', { customer_name: 'Bravo Supply', salesrep_id: 1 }).expect(201);
      const orderNumber = summary(order)[0]!.order_number as number;
      const res = await rep.post('/lineitem', { order_number: orderNumber, product_number: 1, qty_ordered: 1 }).expect(201);
      const bravo = customerEntry(res, 'Bravo Supply');
      expect(bravo).toBeDefined();
      expect(columnsOf(bravo!)).toEqual(['balance', 'name']);
      await expectSameAsGet(rep, res);
      // The own customer's row is admitted by the wider grant: all its columns.
      const alpha = await rep.post('/lineitem', { order_number: samsAlphaOrder, product_number: 1, qty_ordered: 1 }).expect(201);
      expect(customerEntry(alpha, 'Alpha and Sons')).toHaveProperty('credit_limit');
      await expectSameAsGet(rep, alpha);
    });

    it('judges a row on the values the write commits, not those it had before', async () => {
      const debtors = await apiWithRoles(t, ['Sales rep', 'Debtors'], { employee_id: '1' });
      const alpha = ((await demo.get(`/customer/${q('Alpha and Sons')}`).expect(200)).body as Row[])[0]!;
      expect(Number(alpha.balance)).toBeLessThan(5000);
      expect((await debtors.get(`/customer/${q('Alpha and Sons')}`).expect(200)).body[0]).not.toHaveProperty('credit_limit');
      // Hammers (10 each) that take Alpha's balance to 5000 or just past: inside Debtors, under the 9000 limit.
      const qty = Math.ceil((5000 - Number(alpha.balance)) / 10);
      const res = await debtors.post('/lineitem', { order_number: samsAlphaOrder, product_number: 1, qty_ordered: qty }).expect(201);
      expect(customerEntry(res, 'Alpha and Sons')).toHaveProperty('credit_limit');
      await expectSameAsGet(debtors, res);
    });

    it('leaves out a row no READ grant admits, as for a resource the caller cannot read', async () => {
      const clerk = await apiWithRoles(t, ['Order clerk', 'Own customer reader'], { own_customer: 'Bravo Supply' });
      expect((await clerk.get(`/customer/${q('Alpha and Sons')}`).expect(200)).body).toEqual([]);
      const res = await clerk.post('/lineitem', { order_number: samsAlphaOrder, product_number: 1, qty_ordered: 1 }).expect(201);
      expect(
        summary(res)
          .map((r) => meta(r).resource)
          .sort(),
      ).toEqual(['lineitem', 'main:purchaseorder']);
      await expectSameAsGet(clerk, res);
    });

    it('judges a deleted row on the values it had', async () => {
      const demoItem = async (qty: number): Promise<number> =>
        summary(await demo.post('/lineitem', { order_number: samsAlphaOrder, product_number: 1, qty_ordered: qty }).expect(201)).find(
          (r) => meta(r).resource === 'lineitem',
        )!.lineitem_id as number;
      const remover = await apiWithRoles(t, ['Item remover', 'Tiny item reader']);
      const tiny = await demoItem(2);
      const shown = summary(await remover.delete(`/lineitem/${tiny}?checksum=override`).expect(200));
      expect(shown.map((r) => [meta(r).resource, meta(r).verb])).toEqual([['lineitem', 'DELETE']]);
      const big = await demoItem(7);
      expect(summary(await remover.delete(`/lineitem/${big}?checksum=override`).expect(200))).toEqual([]);
      expect((await demo.get(`/lineitem/${big}`).expect(200)).body).toEqual([]);
    });
  });

  describe('constraint messages judged on committed rows', () => {
    it("do not show a row a grant admits only with the refused write's values", async () => {
      const committed = ((await demo.get(`/customer/${q('Bravo Supply')}`).expect(200)).body as Row[])[0]!;
      expect(Number(committed.balance)).toBeLessThan(5000);
      const order = summary(await demo.post('/purchaseorder', { customer_name: 'Bravo Supply', salesrep_id: 1 }).expect(201))[0]!
        .order_number as number;
      const debtors = await apiWithRoles(t, ['Sales rep', 'Debtors'], { employee_id: '1' });
      expect((await debtors.get(`/customer/${q('Bravo Supply')}`).expect(200)).body[0]).not.toHaveProperty('credit_limit');
      // The item would raise Bravo's balance past 5000 (inside Debtors) and past its credit limit.
      const res = await debtors.post('/lineitem', { order_number: order, product_number: 3, qty_ordered: 20 });
      expectError(res, 422, 4220);
      expect(res.body.errorMessage).toBe("Customer (hidden)'s balance (hidden) exceeds their credit limit (hidden)");
      // A customer Debtors admits as committed shows everything.
      await t.dataSource.query(`UPDATE customer SET balance = 5000 WHERE name = ${t.dataSource.options.type === 'postgres' ? '$1' : '?'}`, [
        'Bravo Supply',
      ]);
      try {
        const over = await debtors.post('/lineitem', { order_number: order, product_number: 3, qty_ordered: 20 });
        expect(over.body.errorMessage).toMatch(/^Customer Bravo Supply's balance [\d.]+ exceeds their credit limit 2500$/);
      } finally {
        await t.dataSource.query(
          `UPDATE customer SET balance = ${Number(committed.balance)} WHERE name = ${t.dataSource.options.type === 'postgres' ? '$1' : '?'}`,
          ['Bravo Supply'],
        );
      }
    });
  });

  describe("existence of parents outside the caller's rows", () => {
    it("answers 403 / 4030 to an insert into another rep's order and into a missing order alike", async () => {
      const before = await lineItemCount();
      expectError(await sam.post('/lineitem', { order_number: patsOrder, product_number: 1, qty_ordered: 1 }), 403, 4030);
      expectError(await sam.post('/lineitem', { order_number: MISSING_ORDER, product_number: 1, qty_ordered: 1 }), 403, 4030);
      expectError(
        await sam.post('/lineitem', [
          { order_number: samsAlphaOrder, product_number: 1, qty_ordered: 1 },
          { order_number: MISSING_ORDER, product_number: 1, qty_ordered: 1 },
        ]),
        403,
        4030,
      );
      expect(await lineItemCount()).toBe(before);
      await sam.post('/lineitem', { order_number: samsAlphaOrder, product_number: 1, qty_ordered: 1 }).expect(201);
    });

    it("answers 403 / 4030 to moving a line item to another rep's order and to a missing order alike", async () => {
      const [item] = (await sam.get(`/lineitem?filter=${q(`order_number = ${samsAlphaOrder}`)}`).expect(200)).body as LineItem[];
      const path = `/lineitem/${item!.lineitem_id}`;
      expectError(await sam.put(path, { '@metadata': { checksum: 'override' }, order_number: patsOrder }), 403, 4030);
      expectError(await sam.put(path, { '@metadata': { checksum: 'override' }, order_number: MISSING_ORDER }), 403, 4030);
      // The collection form, one object named by its key among others.
      expectError(
        await sam.put('/lineitem', [
          { '@metadata': { checksum: 'override' }, lineitem_id: item!.lineitem_id, order_number: MISSING_ORDER },
        ]),
        403,
        4030,
      );
      expect(((await sam.get(path).expect(200)).body as Row[])[0]!.order_number).toBe(samsAlphaOrder);
    });

    it('answers 403 / 4030 alike when the filter column is left out of the body (it would be NULL)', async () => {
      const orderCount = async (): Promise<number> => ((await demo.get('/purchaseorder?pagesize=5000').expect(200)).body as Row[]).length;
      const before = await orderCount();
      expectError(await sam.post('/purchaseorder', { customer_name: 'Nope Inc' }), 403, 4030);
      expectError(await sam.post('/purchaseorder', { customer_name: 'Alpha and Sons' }), 403, 4030);
      expectError(await sam.post('/purchaseorder', { customer_name: 'Nope Inc', salesrep_id: null }), 403, 4030);
      expect(await orderCount()).toBe(before);
      // Inside the filter, a missing customer is the foreign key's 422 as before.
      expectError(await sam.post('/purchaseorder', { customer_name: 'Nope Inc', salesrep_id: 1 }), 422, 4221);
    });

    it('keeps 422 / 4221 for a missing parent when the row would be inside a granting filter', async () => {
      expectError(await demo.post('/lineitem', { order_number: MISSING_ORDER, product_number: 1, qty_ordered: 1 }), 422, 4221);
      const small = await apiWithRoles(t, ['Small items']);
      expectError(await small.post('/lineitem', { order_number: MISSING_ORDER, product_number: 1, qty_ordered: 1 }), 422, 4221);
      expectError(await small.post('/lineitem', { order_number: MISSING_ORDER, product_number: 1, qty_ordered: 50 }), 403, 4030);
      expectError(await small.post('/lineitem', { order_number: patsOrder, product_number: 1, qty_ordered: 50 }), 403, 4030);
      await small.post('/lineitem', { order_number: patsOrder, product_number: 1, qty_ordered: 2 }).expect(201);
    });
  });
});

/** The teams project (a commit constraint whose message does not name the key) with writers who see less of a team. */
const teams: ProjectDefinition = {
  ...teamsProject,
  roles: {
    globals: [],
    roles: [
      ...teamsProject.roles.roles,
      {
        name: 'Member clerk',
        defaultAccess: 'NONE',
        resources: { member: { access: ['ALL'] }, team: { access: ['READ'], readColumns: ['team_id', 'name'] } },
      },
      { name: 'Member writer', defaultAccess: 'NONE', resources: { member: { access: ['ALL'] } } },
    ],
  },
};

describeEachTarget('commit constraint messages hide what the caller cannot read', (target) => {
  let t: TestApp;
  let teamId: number;

  suiteApp(target, { project: teams }, async (app) => {
    t = app;
    const demo = await apiAs(t, 'demo');
    teamId = (await demo.post('/team', { name: 'Tiny', max_members: 1 }).expect(201)).body.txsummary[0].team_id as number;
    await demo.post('/member', { team_id: teamId, age: 20, active: true }).expect(201);
  });

  const overfill = async (roles: string[]): Promise<string> => {
    const api = await apiWithRoles(t, roles);
    const res = await api.post('/member', { team_id: teamId, age: 22, active: true });
    expect({ status: res.status, errorCode: res.body.errorCode }).toEqual({ status: 422, errorCode: 4220 });
    return res.body.errorMessage as string;
  };

  it('shows the columns the caller reads, and the key when it may read it', async () => {
    expect(await overfill(['Full access'])).toBe(`Team Tiny has 2 active members, more than 1 (team/${teamId})`);
    // The message names hidden columns: every value in it is hidden, the key (readable) still shown.
    expect(await overfill(['Member clerk'])).toBe(`Team (hidden) has (hidden) active members, more than (hidden) (team/${teamId})`);
    expect(await overfill(['Member writer'])).toBe('Team (hidden) has (hidden) active members, more than (hidden) (team)');
  });
});
