import { ErrorCode } from '../src/common/error-codes.js';
import { demoEvents } from '../src/demo/events.js';
import type { EventRequest, JsonValue } from '../src/extensions/events/api-event-definition.js';
import { Refusal } from '../src/extensions/refusal.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import { apiAs, apiWithKey, apiWithRoles, type Api } from './support/api.js';
import { createManualToken } from './support/auth.js';
import { demoProjectWithRoles } from './support/demo-project.js';
import { describeEachTarget, startTestApp, suiteApp, testTargets, type TestApp } from './support/test-app.js';

/**
 * Request and response events (issue 28, item 4) through HTTP on each database: the demo's (a line item over 1,000
 * units refused with 422 / 4228; v2's customers with a `balance_status`, which a PUT back leaves out), and events of
 * the suite's own for what must never happen: an event past its time (503 / 5033), a bug (500 / 5002 without its
 * message), an adjusted body that goes around a check (it meets them all), a response event that alters `@metadata`
 * (refused), events on meta endpoints (they run on resources only), and a bad definition (the boot lists every problem).
 */

type Row = Record<string, unknown> & { '@metadata': { href: string; checksum: string } };

/** What the suite's counting event saw of each request it met: method and resource. */
const seen: string[] = [];

const project: ProjectDefinition = {
  ...demoProjectWithRoles([
    {
      name: 'Order clerk',
      defaultAccess: 'READ',
      resources: { purchaseorder: { access: ['ALL'], writeColumns: ['customer_name', 'notes'] } },
    },
  ]),
  events: {
    request: [
      ...demoEvents.request!,
      {
        name: 'countEverything',
        run: ({ method, resource }: EventRequest) => {
          seen.push(`${method} ${resource ?? '(root)'}`);
        },
      },
      {
        name: 'slowProducts',
        resources: ['product'],
        methods: ['GET'],
        timeoutMs: 100,
        run: ({ signal }) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve())),
      },
      {
        name: 'buggyEmployees',
        resources: ['main:employee'],
        methods: ['GET'],
        run: () => {
          throw new Error('password=hunter2');
        },
      },
      {
        name: 'adjustOrders',
        resources: ['purchaseorder'],
        methods: ['POST'],
        run: (request) => {
          const order = request.body as Record<string, JsonValue>;
          if (order.notes === 'shout') request.body = { ...order, notes: 'SHOUT' };
          if (order.notes === 'add a column') order.no_such_column = 1;
          if (order.notes === 'mark paid') order.paid = true;
          if (order.notes === 'refuse') throw new Refusal(409, 'Orders are closed today.');
        },
      },
    ],
    response: [
      ...demoEvents.response!,
      {
        name: 'stampOrderWrites',
        resources: ['purchaseorder'],
        methods: ['POST'],
        run: (response) => {
          response.answer = { ...(response.answer as Record<string, JsonValue>), receivedBy: response.caller.user };
        },
      },
      {
        name: 'scribbleOnChecksums',
        resources: ['OrderEntry'],
        methods: ['GET'],
        run: ({ answer }) => {
          const [first] = answer as Array<Record<string, Record<string, JsonValue>>>;
          if (first) first['@metadata']!.checksum = 'forged';
        },
      },
      {
        name: 'replaceHrefs',
        resources: ['Customers.Orders'],
        methods: ['GET'],
        versions: ['v1'],
        run: (response) => {
          response.answer = (response.answer as Array<Record<string, JsonValue>>).map((o) => ({
            ...o,
            '@metadata': { href: 'https://elsewhere.example/x' },
          }));
        },
      },
    ],
  },
};

describeEachTarget('request and response events', (target) => {
  let t: TestApp;
  let demo: Api;
  let v2: Api;
  let readonly: Api;

  suiteApp(target, { project }, async (app) => {
    t = app;
    demo = await apiAs(t, 'demo');
    readonly = await apiAs(t, 'readonly');
    const key = await createManualToken(t, { roles: ['Full access'], label: 'v2', userIdentifier: 'v2 client' });
    v2 = apiWithKey({ ...t, base: t.base.replace(/\/v1$/, '/v2') }, key);
  });

  const firstOrder = async (): Promise<number> =>
    ((await demo.get('/purchaseorder?pagesize=1').expect(200)).body as Row[])[0]!.order_number as number;

  describe("the demo's request event", () => {
    it('refuses a line item of more than 1,000 units with the envelope of a 422, and writes nothing', async () => {
      const order = await firstOrder();
      const before = (await demo.get(`/lineitem?sysfilter=equal(order_number:${order})&pagesize=100`).expect(200)).body as Row[];
      const res = await demo.post('/lineitem', { order_number: order, product_number: 1, qty_ordered: 1001 }).expect(422);
      expect(res.body).toEqual({ statusCode: 422, errorCode: 4228, errorMessage: 'A line item may not order more than 1,000 units.' });
      const after = (await demo.get(`/lineitem?sysfilter=equal(order_number:${order})&pagesize=100`).expect(200)).body as Row[];
      expect(after).toEqual(before);
      // 1,000 is allowed (for a customer whose credit allows it), in a list too; one over it among several refuses the whole request.
      await demo.post('/customer', { name: 'Big Buyer', credit_limit: 1_000_000_000 }).expect(201);
      const big = (await demo.post('/purchaseorder', { customer_name: 'Big Buyer' }).expect(201)).body.txsummary.find(
        (r: Row) => r.customer_name === 'Big Buyer' && r.order_number,
      ).order_number as number;
      await demo.post('/lineitem', [{ order_number: big, product_number: 1, qty_ordered: 1000 }]).expect(201);
      const mixed = await demo.post('/lineitem', [
        { order_number: big, product_number: 1, qty_ordered: 1 },
        { order_number: big, product_number: 2, qty_ordered: '5000' },
      ]);
      expect([mixed.status, mixed.body.errorCode]).toEqual([422, 4228]);
    });

    it('refuses a PUT raising the quantity past the limit', async () => {
      const [item] = (await demo.get('/lineitem?pagesize=1').expect(200)).body as Row[];
      const res = await demo.put(`/lineitem/${String(item!.lineitem_id)}`, { ...item, qty_ordered: 2000 }).expect(422);
      expect(res.body.errorCode).toBe(ErrorCode.PROJECT_REFUSED_UNPROCESSABLE);
    });

    it('runs after the roles: a caller who may not write line items is told 403, never the limit', async () => {
      const order = await firstOrder();
      const res = await readonly.post('/lineitem', { order_number: order, product_number: 1, qty_ordered: 5000 }).expect(403);
      expect(res.body.errorCode).toBe(ErrorCode.FORBIDDEN);
    });
  });

  describe("the demo's response event", () => {
    it("gives v2's customer objects a balance_status and leaves v1's as they were", async () => {
      const [v2Customer] = (await v2.get('/customer/Alpha%20and%20Sons').expect(200)).body as Row[];
      expect(v2Customer!.balance_status).toMatch(/^(ok|near limit|over limit)$/);
      const [v1Customer] = (await demo.get('/customer/Alpha%20and%20Sons').expect(200)).body as Row[];
      expect(v1Customer).not.toHaveProperty('balance_status');
      // The same row, the same @metadata: the event did not touch the checksum.
      expect(v2Customer!['@metadata'].checksum).toBe(v1Customer!['@metadata'].checksum);
      const list = (await v2.get('/customer?pagesize=3').expect(200)).body as Row[];
      expect(list.filter((c) => c['@metadata'].href).every((c) => typeof c.balance_status === 'string')).toBe(true);
    });

    it('shows what the caller may read only: no status for a caller who cannot read the credit limit', async () => {
      const key = await createManualToken(t, { roles: ['Sales rep'], globals: { employee_id: 1 }, label: 'rep' });
      const rep = apiWithKey({ ...t, base: t.base.replace(/\/v1$/, '/v2') }, key);
      const [customer] = (await rep.get('/customer/Alpha%20and%20Sons').expect(200)).body as Row[];
      expect(Object.keys(customer!).sort()).toEqual(['@metadata', 'balance', 'name']);
    });

    it('takes back a PUT of what a GET answered, balance_status and all, and writes it', async () => {
      await v2.post('/customer', { name: 'Round Trip Co', credit_limit: 1000 }).expect(201);
      const [read] = (await v2.get('/customer/Round%20Trip%20Co').expect(200)).body as Row[];
      expect(read!.balance_status).toBe('ok');
      const res = await v2.put('/customer/Round%20Trip%20Co', { ...read, credit_limit: 2000 }).expect(200);
      expect(res.body.txsummary).toEqual([expect.objectContaining({ name: 'Round Trip Co', credit_limit: 2000 })]);
      // Another field no resource has is still refused.
      const [again] = (await v2.get('/customer/Round%20Trip%20Co').expect(200)).body as Row[];
      const refused = await v2.put('/customer/Round%20Trip%20Co', { ...again, balance_state: 'x' }).expect(400);
      expect(refused.body.errorCode).toBe(ErrorCode.UNKNOWN_COLUMN);
    });
  });

  describe('limits and failures', () => {
    it('answers 503 / 5033 when an event runs past its time', async () => {
      const res = await demo.get('/product').expect(503);
      expect(res.body).toMatchObject({ errorCode: ErrorCode.EXTENSION_TIMEOUT });
      expect(res.body.errorMessage).toBe('The request event slowProducts did not finish within 100 ms.');
    });

    it("answers an event's bug as 500 / 5002, never with its message", async () => {
      const res = await demo.get('/employee').expect(500);
      expect(res.body.errorCode).toBe(ErrorCode.EXTENSION_FAILED);
      expect(JSON.stringify(res.body)).not.toContain('hunter2');
    });

    it("refuses with the event's own status and message", async () => {
      const res = await demo.post('/purchaseorder', { customer_name: 'Alpha and Sons', notes: 'refuse' }).expect(409);
      expect(res.body).toEqual({ statusCode: 409, errorCode: 4098, errorMessage: 'Orders are closed today.' });
    });
  });

  describe('an adjusted body meets every check', () => {
    it('writes the body the event gave', async () => {
      const res = await demo.post('/purchaseorder', { customer_name: 'Alpha and Sons', notes: 'shout' }).expect(201);
      expect(res.body.txsummary).toEqual(expect.arrayContaining([expect.objectContaining({ notes: 'SHOUT' })]));
    });

    it('refuses a column the event made up: 400 / 4003', async () => {
      const res = await demo.post('/purchaseorder', { customer_name: 'Alpha and Sons', notes: 'add a column' }).expect(400);
      expect(res.body.errorCode).toBe(ErrorCode.UNKNOWN_COLUMN);
    });

    it('refuses a column the caller may not write, whoever set it', async () => {
      const clerk = await apiWithRoles(t, ['Order clerk']);
      const own = await clerk.post('/purchaseorder', { customer_name: 'Alpha and Sons', notes: 'plain' });
      expect(own.status).toBe(201);
      const res = await clerk.post('/purchaseorder', { customer_name: 'Alpha and Sons', notes: 'mark paid' });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      const direct = await clerk.post('/purchaseorder', { customer_name: 'Alpha and Sons', notes: 'x', paid: true });
      expect([res.status, res.body.errorCode]).toEqual([direct.status, direct.body.errorCode]);
    });
  });

  describe('response events and @metadata', () => {
    it('reshape a write answer, its txsummary as written', async () => {
      const res = await demo.post('/purchaseorder', { customer_name: 'Alpha and Sons', notes: 'stamped' }).expect(201);
      expect(res.body.receivedBy).toBe('demo');
      const entry = (res.body.txsummary as Row[]).find((r) => r.notes === 'stamped')!;
      const [stored] = (await demo.getUrl(entry['@metadata'].href).expect(200)).body as Row[];
      expect(stored!['@metadata'].checksum).toBe(entry['@metadata'].checksum);
    });

    it('may not change a checksum in place: 500 / 5002', async () => {
      const res = await demo.get('/OrderEntry?pagesize=2').expect(500);
      expect(res.body.errorCode).toBe(ErrorCode.EXTENSION_FAILED);
    });

    it('may not put an @metadata of their own: 500 / 5002', async () => {
      const res = await demo.get('/Customers.Orders?pagesize=2').expect(500);
      expect(res.body.errorCode).toBe(ErrorCode.EXTENSION_FAILED);
      // In v2 the event does not run (versions: ['v1']).
      await v2.get('/Customers.Orders?pagesize=2').expect(200);
    });
  });

  describe('where events run', () => {
    it('on resource requests, with the resource as the API names it; at the API root without one', async () => {
      seen.length = 0;
      await demo.get('/main:customer?pagesize=1').expect(200);
      await demo.get('/Customers?pagesize=1').expect(200);
      await demo.post('', [{ '@metadata': { entity: 'customer' }, name: 'Rooted Co', credit_limit: 10 }]).expect(201);
      expect(seen).toEqual(['GET customer', 'GET Customers', 'POST (root)']);
    });

    it('never on meta endpoints', async () => {
      seen.length = 0;
      for (const path of ['/@resources', '/@tables', '/@docs', '/@count/employee', '/@events', '/@versions', '/@rules']) {
        await demo.get(path).expect(200);
      }
      expect(seen).toEqual([]);
    });

    it('@events lists every event with its filters, never its code', async () => {
      const events = (await readonly.get('/@events').expect(200)).body as Array<Record<string, unknown>>;
      expect(events.find((e) => e.name === 'limitLineitemQuantity')).toEqual({
        name: 'limitLineitemQuantity',
        kind: 'request',
        resources: ['lineitem'],
        methods: ['POST', 'PUT'],
        versions: null,
        timeoutMs: t.config.api.extensionTimeoutMs,
        adds: [],
      });
      expect(events.find((e) => e.name === 'customerBalanceStatus')).toMatchObject({
        kind: 'response',
        versions: ['v2'],
        adds: ['balance_status'],
      });
      expect(JSON.stringify(events)).not.toContain('hunter2');
    });
  });
});

describe('request and response events: bad definitions', () => {
  const [target] = testTargets();

  it('stop the boot with one message listing every problem', async () => {
    const broken: ProjectDefinition = {
      ...project,
      events: {
        request: [
          { name: 'noSuchResource', resources: ['nothing', 'lineitem'], run: () => undefined },
          { name: 'badMethod', methods: ['FETCH' as 'GET'], versions: ['v9'], run: () => undefined },
          { name: 'v2Only', resources: ['Customers'], timeoutMs: 0, run: () => undefined },
          { name: 'noCode' } as never,
        ],
        response: [{ name: 'addsAColumn', adds: ['credit_limit'], run: () => undefined }],
      },
    };
    const failure = await startTestApp(target!, { project: broken }).then(
      async (t) => {
        await t.close();
        return undefined;
      },
      (error: unknown) => error as Error,
    );
    expect(failure?.name).toBe('ApiEventsError');
    const message = failure!.message;
    for (const problem of [
      'request event "noSuchResource": no resource named "nothing"',
      'request event "badMethod": unknown methods FETCH',
      'request event "badMethod": unknown versions v9',
      'request event "v2Only": timeoutMs is a whole number',
      'request event "noCode": run must be a function',
      'response event "addsAColumn": adds credit_limit, which a resource has as an attribute',
    ]) {
      expect(message).toContain(problem);
    }
    expect(message).not.toContain('"v2Only": no resource');
  });
});
