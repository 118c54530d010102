import { demoProject } from '../src/demo/project.js';
import { demoRoles } from '../src/demo/roles.js';
import { Customer } from '../src/demo/entities/customer.entity.js';
import { Employee } from '../src/demo/entities/employee.entity.js';
import { Product } from '../src/demo/entities/product.entity.js';
import { Purchaseorder } from '../src/demo/entities/purchaseorder.entity.js';
import { defineFunction, type FunctionDefinition } from '../src/extensions/functions/function-definition.js';
import { Refusal } from '../src/extensions/refusal.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import { apiAs, apiWithRoles, oneRow, type Api } from './support/api.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

/**
 * Functions (issue 28, item 3): row functions (`<table>/<key>/<name>`) and resource functions (`<table>/<name>`)
 * written in the project, with typed and checked parameters, run as the caller (its grants, row filters and
 * columns), GET without writing and POST/PUT in one transaction with the rules, answered with the txsummary;
 * the time limit, a refusal and a failure answered as envelopes. The demo's `giveRaise` is LAC's example.
 */

type Row = Record<string, unknown>;

/** The suite's own functions, beside the demo's. */
const testFunctions: FunctionDefinition[] = [
  defineFunction({ name: 'slow', kind: 'resource', entity: Customer, timeoutMs: 200, run: () => new Promise(() => undefined) }),
  defineFunction({
    name: 'slowWrite',
    kind: 'resource',
    entity: Employee,
    writes: true,
    access: 'INSERT',
    timeoutMs: 300,
    run: async ({ data }) => {
      await data.insert('employee', { login: 'slowpoke', name: 'Slow Poke' });
      return new Promise(() => undefined);
    },
  }),
  defineFunction({
    name: 'leaky',
    kind: 'resource',
    entity: Customer,
    run: () => {
      throw new Error('password=hunter2');
    },
  }),
  defineFunction({
    name: 'notToday',
    kind: 'resource',
    entity: Customer,
    run: () => {
      throw new Refusal(409, 'Not today.');
    },
  }),
  defineFunction({
    name: 'hireTwo',
    kind: 'resource',
    entity: Employee,
    writes: true,
    access: 'INSERT',
    parameters: {
      first: { type: 'string', required: true, maxLength: 15 },
      second: { type: 'string', required: true, maxLength: 15 },
      failAfterFirst: { type: 'boolean' },
    },
    run: async ({ data, parameters }) => {
      const one = await data.insert('employee', { login: parameters.first, name: 'First' });
      if (parameters.failAfterFirst === true) throw new Refusal(422, 'Changed my mind.');
      const two = await data.insert('employee', { login: parameters.second, name: 'Second' });
      return [one?.employee_id, two?.employee_id];
    },
  }),
  defineFunction({
    name: 'writesAnyway',
    kind: 'resource',
    entity: Employee,
    writes: true,
    run: async ({ data }) => data.insert('employee', { login: 'sneaky', name: 'Sneaky' }),
  }),
  defineFunction({
    name: 'echo',
    kind: 'resource',
    entity: Product,
    parameters: {
      n: { type: 'number' },
      i: { type: 'integer', min: 1, max: 10 },
      b: { type: 'boolean' },
      d: { type: 'date' },
      s: { type: 'string', minLength: 2, maxLength: 5 },
    },
    run: ({ parameters, caller }) => ({ parameters, roles: caller.roles }),
  }),
  defineFunction({ name: 'fullOnly', kind: 'resource', entity: Product, roles: ['Full access'], run: () => 'yes' }),
  defineFunction<Customer>({ name: 'asSeen', kind: 'row', entity: Customer, run: ({ row }) => row }),
  defineFunction<Purchaseorder>({
    name: 'summary',
    kind: 'row',
    entity: Purchaseorder,
    run: async ({ row, data }) => ({
      order_number: row.order_number,
      lines: (await data.list('lineitem', { filter: `order_number = ${Number(row.order_number)}` })).length,
    }),
  }),
  defineFunction({
    name: 'customersSeen',
    kind: 'resource',
    entity: Customer,
    run: async ({ data }) => ({
      mine: (await data.list('customer', { pagesize: 100 })).map((c) => Object.keys(c).sort()),
      all: (await data.list('customer', { pagesize: 100, system: true })).map((c) => Object.keys(c).sort()),
    }),
  }),
];

const project: ProjectDefinition = {
  ...demoProject,
  functions: [...(demoProject.functions ?? []), ...testFunctions],
  roles: { globals: demoRoles.globals, roles: [...demoRoles.roles, { name: 'Nothing', defaultAccess: 'NONE' }] },
};

describeEachTarget('functions', (target) => {
  let t: TestApp;
  let demo: Api;
  let readonly: Api;
  let sam: Api;

  suiteApp(target, { project }, async (app) => {
    t = app;
    demo = await apiAs(app, 'demo');
    readonly = await apiAs(app, 'readonly');
    sam = await apiAs(app, 'sam');
  });

  describe('giveRaise (the demo)', () => {
    it('GET answers the raised salary and writes nothing', async () => {
      const before = await oneRow<Row>(demo, '/employee/1');
      const res = await demo.get('/employee/1/giveRaise?percentRaise=10').expect(200);
      expect(res.body).toEqual({ employee_id: 1, name: 'Sam Sales', salary: 50000, percentRaise: 10, newSalary: 55000 });
      expect(await oneRow<Row>(demo, '/employee/1')).toEqual(before);
      // The read-only role may read it too.
      await readonly.get('/employee/1/giveRaise?percentRaise=10').expect(200);
    });

    it('POST writes the raise through the rules and answers the txsummary; the read-only role gets 403', async () => {
      const refused = await readonly.post('/employee/2/giveRaise?percentRaise=5', {}).expect(403);
      expect(refused.body).toEqual({ statusCode: 403, errorCode: 4030, errorMessage: expect.stringContaining('UPDATE') });
      await sam.post('/employee/2/giveRaise?percentRaise=5', {}).expect(403);
      expect((await oneRow<Row>(demo, '/employee/2')).salary).toBe(62000);

      const res = await demo.post('/employee/2/giveRaise?percentRaise=5', {}).expect(200);
      expect(res.body).toEqual({
        statusCode: 200,
        result: { employee_id: 2, name: 'Pat Peters', salary: 62000, percentRaise: 5, newSalary: 65100 },
        txsummary: [
          {
            '@metadata': {
              href: expect.stringMatching(/\/employee\/2$/),
              resource: 'employee',
              verb: 'UPDATE',
              checksum: expect.any(String),
            },
            employee_id: 2,
            login: 'pat',
            name: 'Pat Peters',
            salary: 65100,
          },
        ],
      });
      const after = await oneRow<Row & { '@metadata': { checksum: string } }>(demo, '/employee/2');
      expect(after.salary).toBe(65100);
      expect(after['@metadata'].checksum).toBe(res.body.txsummary[0]['@metadata'].checksum);
      // PUT does the same.
      await demo.put('/employee/2/giveRaise?percentRaise=0', {}).expect(200);
    });

    it('checks its parameters: unknown, missing, of the wrong type or out of range is 400 / 4000 naming it', async () => {
      const unknown = await demo.get('/employee/1/giveRaise?percentRaise=10&percent=3').expect(400);
      expect(unknown.body).toEqual({ statusCode: 400, errorCode: 4000, errorMessage: expect.stringContaining('"percent"') });
      const missing = await demo.get('/employee/1/giveRaise').expect(400);
      expect(missing.body.errorMessage).toContain('percentRaise');
      const text = await demo.get('/employee/1/giveRaise?percentRaise=ten').expect(400);
      expect(text.body).toEqual({ statusCode: 400, errorCode: 4000, errorMessage: 'Parameter "percentRaise" must be a number.' });
      await demo.get('/employee/1/giveRaise?percentRaise=101').expect(400);
      await demo.get('/employee/1/giveRaise?percentRaise=1&percentRaise=2').expect(400);
    });

    it('answers 404 / 4041 for a row that is not there, and leaves the table and its attributes as they were', async () => {
      const res = await demo.get('/employee/999/giveRaise?percentRaise=1').expect(404);
      expect(res.body.errorCode).toBe(4041);
      // Not a function: still the attribute's value, the row, the list.
      expect((await demo.get('/employee/1/name').expect(200)).text).toBe('Sam Sales');
      await demo.get('/employee/1').expect(200);
      await demo.get('/employee/1/notAFunction').expect(400);
      const notHere = await demo.post('/employee/1/notAFunction', {}).expect(404);
      expect(notHere.body.errorCode).toBe(4040);
    });
  });

  describe('typed parameters', () => {
    it('gives the function each value in its type', async () => {
      const res = await demo.get('/product/echo?n=-2.5&i=7&b=true&d=2024-02-29&s=abc').expect(200);
      expect(res.body).toEqual({ parameters: { n: -2.5, i: 7, b: true, d: '2024-02-29', s: 'abc' }, roles: ['Full access'] });
    });

    it.each([
      ['i=1.5', 'whole number'],
      ['i=11', 'from 1 to 10'],
      ['b=yes', 'true or false'],
      ['d=2023-02-29', 'date'],
      ['s=a', 'characters'],
      ['s=abcdef', 'characters'],
      ['n=1e999', 'out of range'],
    ])('refuses %s', async (query, message) => {
      const res = await demo.get(`/product/echo?${query}`).expect(400);
      expect(res.body.errorCode).toBe(4000);
      expect(res.body.errorMessage).toContain(message);
    });
  });

  describe('as the caller', () => {
    it('gives a row function the row as the caller sees it: its columns only', async () => {
      const all = await demo.get('/customer/Alpha%20and%20Sons/asSeen').expect(200);
      expect(Object.keys(all.body).sort()).toEqual(['balance', 'credit_limit', 'name']);
      const mine = await sam.get('/customer/Alpha%20and%20Sons/asSeen').expect(200);
      expect(Object.keys(mine.body).sort()).toEqual(['balance', 'name']);
    });

    it('answers 404 / 4041 for a row the caller cannot see, and reads the rows it can', async () => {
      const samsOrders = ((await sam.get('/purchaseorder?pagesize=100').expect(200)).body as Row[]).map((o) => o.order_number as number);
      const someoneElses = ((await demo.get('/purchaseorder?pagesize=100').expect(200)).body as Row[])
        .map((o) => o.order_number as number)
        .find((n) => !samsOrders.includes(n));
      const hidden = await sam.get(`/purchaseorder/${someoneElses}/summary`).expect(404);
      expect(hidden.body.errorCode).toBe(4041);
      const own = await sam.get(`/purchaseorder/${samsOrders[0]}/summary`).expect(200);
      expect(own.body).toEqual({ order_number: samsOrders[0], lines: expect.any(Number) });
    });

    it('reads with full rights only when asked for system access', async () => {
      const res = await sam.get('/customer/customersSeen').expect(200);
      expect(res.body.mine.length).toBeGreaterThan(0);
      expect(res.body.mine.every((keys: string[]) => keys.join() === 'balance,name')).toBe(true);
      expect(res.body.all).toHaveLength(res.body.mine.length);
      expect(res.body.all.every((keys: string[]) => keys.join() === 'balance,credit_limit,name')).toBe(true);
    });

    it("refuses a caller without the table's grant or the function's role", async () => {
      const nothing = await apiWithRoles(t, ['Nothing']);
      await nothing.get('/employee/1/giveRaise?percentRaise=1').expect(403);
      const res = await sam.get('/product/fullOnly').expect(403);
      expect(res.body.errorCode).toBe(4030);
      expect((await demo.get('/product/fullOnly').expect(200)).body).toBe('yes');
    });

    it('answers a read-only function only to GET (405 / 4050 with Allow)', async () => {
      const res = await demo.post('/product/echo', {}).expect(405);
      expect(res.body.errorCode).toBe(4050);
      expect(res.headers.allow).toBe('GET');
    });
  });

  describe('writes', () => {
    it('writes two rows in one transaction: both in the txsummary', async () => {
      const res = await demo.post('/employee/hireTwo?first=ann&second=bea', {}).expect(200);
      expect(res.body.txsummary.map((e: Row) => [e.login, (e['@metadata'] as Row).verb])).toEqual([
        ['ann', 'INSERT'],
        ['bea', 'INSERT'],
      ]);
      expect(res.body.result).toEqual([expect.any(Number), expect.any(Number)]);
    });

    it('rolls back both when it fails after the first write', async () => {
      const res = await demo.post('/employee/hireTwo?first=cid&second=dot&failAfterFirst=true', {}).expect(422);
      expect(res.body).toEqual({ statusCode: 422, errorCode: 4228, errorMessage: 'Changed my mind.' });
      expect((await demo.get("/employee?filter=login%20in%20('cid','dot')").expect(200)).body).toEqual([]);
    });

    it('never writes on a GET: the write is refused and the function fails', async () => {
      const res = await demo.get('/employee/writesAnyway').expect(500);
      expect(res.body.errorCode).toBe(5002);
      expect((await demo.get("/employee?filter=login%20%3D%20'sneaky'").expect(200)).body).toEqual([]);
    });

    it("answers the database's refusal as it is (a duplicate login)", async () => {
      const res = await demo.post('/employee/hireTwo?first=eve&second=eve', {}).expect((r) => expect([409, 422]).toContain(r.status));
      expect(res.body.errorCode).not.toBe(5002);
      expect((await demo.get("/employee?filter=login%20%3D%20'eve'").expect(200)).body).toEqual([]);
    });
  });

  describe('failures', () => {
    it('answers 503 / 5033 past the time limit', async () => {
      const res = await demo.get('/customer/slow').expect(503);
      expect(res.body).toEqual({
        statusCode: 503,
        errorCode: 5033,
        errorMessage: 'The function slow did not finish within 200 ms.',
        requestId: expect.any(String),
      });
    });

    it('rolls back a write in progress when the time runs out, and the database is free again', async () => {
      await demo.post('/employee/slowWrite', {}).expect(503);
      // The transaction is gone: the next write does not wait for it.
      await demo.post('/employee/1/giveRaise?percentRaise=0', {}).expect(200);
      expect((await demo.get("/employee?filter=login%20%3D%20'slowpoke'").expect(200)).body).toEqual([]);
    });

    it('answers a thrown Error as 500 / 5002 without its message, a Refusal as its envelope', async () => {
      const leaky = await demo.get('/customer/leaky').expect(500);
      expect(leaky.body).toEqual({
        statusCode: 500,
        errorCode: 5002,
        errorMessage: 'The function leaky failed; the server log has the details.',
        requestId: expect.any(String),
      });
      expect(JSON.stringify(leaky.body)).not.toContain('hunter2');
      const refused = await demo.get('/customer/notToday').expect(409);
      expect(refused.body).toEqual({ statusCode: 409, errorCode: 4098, errorMessage: 'Not today.' });
    });
  });
});
