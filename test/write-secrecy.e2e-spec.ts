import type { ProjectDefinition } from '../src/common/project-definition.js';
import { demoProject } from '../src/project/project.js';
import { demoRoles } from '../src/project/roles.js';
import { apiAs, apiWithKey, type Api } from './support/api.js';
import { createManualToken } from './support/auth.js';
import { describeEachTarget, startTestApp, type TestApp } from './support/test-app.js';

type Row = Record<string, unknown>;

/** The demo roles plus writers who cannot read customers, or only some, and one whose line items are filtered on their own columns. */
const project: ProjectDefinition = {
  ...demoProject,
  roles: {
    globals: [...demoRoles.globals, 'own_customer'],
    roles: [
      ...demoRoles.roles,
      { name: 'Order clerk', defaultAccess: 'NONE', resources: { purchaseorder: { access: ['ALL'] }, lineitem: { access: ['ALL'] }, product: { access: ['READ'] } } },
      { name: 'Own customer reader', defaultAccess: 'NONE', resources: { customer: { access: ['READ'], rowFilter: 'name = @{own_customer}' } } },
      { name: 'Small items', defaultAccess: 'NONE', resources: { lineitem: { access: ['INSERT', 'UPDATE'], rowFilter: 'qty_ordered < 10' } } },
    ],
  },
};

const q = (text: string): string => encodeURIComponent(text);

describeEachTarget('writes reveal nothing the caller cannot read', (target) => {
  let t: TestApp;
  let sam: Api;
  let demo: Api;
  let samsAlphaOrder: number;

  beforeAll(async () => {
    t = await startTestApp(target, { project });
    sam = await apiAs(t, 'sam');
    demo = await apiAs(t, 'demo');
    const orders = (await demo.get(`/purchaseorder?pagesize=100&filter=${q("salesrep_id = 1 and customer_name = 'Alpha and Sons' and paid = false")}`).expect(200)).body as Row[];
    samsAlphaOrder = orders[0]!.order_number as number;
  });
  afterAll(async () => {
    await t?.close();
  });

  const as = async (roles: string[], globals: Record<string, string> = {}): Promise<Api> =>
    apiWithKey(t, await createManualToken(t, { roles, globals, label: roles.join('+') }));
  const bigItem = (order: number): Row => ({ order_number: order, product_number: 3, qty_ordered: 100 });

  function expectError(res: { status: number; body: Row }, status: number, errorCode: number): void {
    expect({ status: res.status, errorCode: res.body.errorCode }).toEqual({ status, errorCode });
  }

  describe('rule messages', () => {
    it('show a Sales rep "(hidden)" for a credit limit it may not read, and the rest of the message', async () => {
      const res = await sam.post('/lineitem', bigItem(samsAlphaOrder));
      expectError(res, 422, 4220);
      expect(res.body.errorMessage).toMatch(/^Customer Alpha and Sons's balance [\d.]+ exceeds their credit limit \(hidden\)$/);
      expect(res.body.errorMessage).not.toContain('9000');
      // Full access reads the credit limit, and sees it.
      const full = await demo.post('/lineitem', bigItem(samsAlphaOrder));
      expect(full.body.errorMessage).toMatch(/exceeds their credit limit 9000$/);
    });

    it('hide every placeholder, and the key, of a row the caller cannot read at all', async () => {
      const clerk = await as(['Order clerk']);
      const res = await clerk.post('/lineitem', bigItem(samsAlphaOrder));
      expectError(res, 422, 4220);
      expect(res.body.errorMessage).toBe("Customer (hidden)'s balance (hidden) exceeds their credit limit (hidden)");
    });

    it('show the values of a row only where a role admitting that row shows them (row filters with globals)', async () => {
      const reader = await as(['Order clerk', 'Own customer reader'], { own_customer: 'Alpha and Sons' });
      expect((await reader.post('/lineitem', bigItem(samsAlphaOrder))).body.errorMessage).toMatch(/^Customer Alpha and Sons's balance [\d.]+ exceeds their credit limit 9000$/);
      const other = await as(['Order clerk', 'Own customer reader'], { own_customer: 'Bravo Supply' });
      expect((await other.post('/lineitem', bigItem(samsAlphaOrder))).body.errorMessage).toBe("Customer (hidden)'s balance (hidden) exceeds their credit limit (hidden)");
    });
  });
});
