import { demoProject } from '../src/demo/project.js';
import type { FunctionResourceDefinition } from '../src/extensions/functions/function-definition.js';
import { Refusal } from '../src/extensions/refusal.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import { apiAs, apiWithRoles, type Api } from './support/api.js';
import { bootFailureOf, describeEachTarget, suiteApp, testTargets, type TestApp } from './support/test-app.js';

/**
 * The project's extensions meet the request and response events as tables do (issue 28, item 4), and are found by
 * one route lookup (RolesGuard's `ExtensionRoutes`): an event names a function resource, SQL resource or procedure
 * by its own name and a table's function as `<table>/<function>`; an event without `resources` meets them all. A
 * request event may refuse an extension's request or adjust its body; a response event reshapes its answer.
 */

type Row = Record<string, unknown>;

/** What the unfiltered request event saw, in order: `<method> <resource> <table> <key>`. */
const seen: string[] = [];

/** A function resource that writes nothing and answers the body a POST gave it. */
const echo: FunctionResourceDefinition = {
  name: 'echo',
  get: () => null,
  post: ({ body }) => ({ got: body }),
};

const project: ProjectDefinition = {
  ...demoProject,
  functionResources: [...(demoProject.functionResources ?? []), echo],
  roles: { ...demoProject.roles, roles: [...demoProject.roles.roles, { name: 'No grants', defaultAccess: 'NONE' }] },
  events: {
    request: [
      {
        name: 'recordAll',
        run: (request) => {
          seen.push(`${request.method} ${request.resource} ${request.table} ${request.key}`);
        },
      },
      {
        name: 'capRaise',
        resources: ['employee/giveRaise'],
        methods: ['POST', 'PUT'],
        run: (request) => {
          if (Number(request.query.percentRaise) > 20) throw new Refusal(422, 'Raises above 20% need the board.');
        },
      },
      {
        name: 'noSecrets',
        resources: ['customer_orders'],
        run: (request) => {
          if (request.query.min_total === '666') throw new Refusal(403, 'Not that one.');
        },
      },
      {
        name: 'stampEcho',
        resources: ['echo'],
        methods: ['POST'],
        run: (request) => {
          request.body = { ...(request.body as Row), stamped: request.caller.user };
        },
      },
    ],
    response: [
      {
        name: 'rankOwed',
        resources: ['owedByCustomer'],
        run: (response) => {
          const answer = response.answer as Row[];
          let rank = 0;
          for (const entry of answer) if (!('@metadata' in entry)) entry.rank = ++rank;
        },
      },
      {
        name: 'wrapRaise',
        resources: ['employee/giveRaise'],
        methods: ['GET'],
        run: (response) => {
          response.answer = { proposal: response.answer };
        },
      },
    ],
  },
};

describeEachTarget('events on extensions, and their routes', (target) => {
  let t: TestApp;
  let demo: Api;

  suiteApp(target, { project }, async (app) => {
    t = app;
    demo = await apiAs(app, 'demo');
  });

  it('meet a row function by <table>/<function>: a request event refuses a POST over its limit, a response event reshapes its GET', async () => {
    const refused = await demo.post('/employee/1/giveRaise?percentRaise=30', {}).expect(422);
    expect(refused.body).toEqual(
      expect.objectContaining({ statusCode: 422, errorCode: 4228, errorMessage: 'Raises above 20% need the board.' }),
    );
    const before = (await demo.get('/employee/1').expect(200)).body as Row[];
    const proposal = (await demo.get('/employee/1/giveRaise?percentRaise=30').expect(200)).body as Row;
    expect(proposal.proposal).toEqual(expect.objectContaining({ employee_id: 1, percentRaise: 30 }));
    // Refused: nothing was written.
    expect((await demo.get('/employee/1').expect(200)).body).toEqual(before);
    const written = await demo.post('/employee/1/giveRaise?percentRaise=10', {}).expect(200);
    expect(written.body.txsummary.length).toBeGreaterThan(0);
  });

  it('meet a function resource: the response event ranks its answer; a request event adjusts a POST body', async () => {
    const owed = (await demo.get('/owedByCustomer?pagesize=2').expect(200)).body as Row[];
    expect(owed.slice(0, 2).map((e) => e.rank)).toEqual([1, 2]);
    // The next_batch element keeps its @metadata as it was.
    expect(Object.keys(owed[2]!)).toEqual(['@metadata']);
    const echoed = await demo.post('/echo', { note: 'hi' }).expect(201);
    expect(echoed.body.result).toEqual({ got: { note: 'hi', stamped: 'demo' } });
  });

  it('meet a SQL resource by its name', async () => {
    await demo.get('/customer_orders?min_total=0').expect(200);
    const refused = await demo.get('/customer_orders?min_total=666').expect(403);
    expect(refused.body.errorMessage).toBe('Not that one.');
  });

  it('an event without resources meets every extension, with its table and key where it has them', async () => {
    seen.length = 0;
    await demo.get('/employee/2/giveRaise?percentRaise=1').expect(200);
    await demo.get('/owedByCustomer').expect(200);
    await demo.get('/customer_orders').expect(200);
    await demo.get('/employee/2').expect(200);
    expect(seen).toEqual([
      'GET employee/giveRaise employee 2',
      'GET owedByCustomer undefined undefined',
      'GET customer_orders undefined undefined',
      'GET employee employee 2',
    ]);
  });

  describe('one route lookup for every kind', () => {
    it('a SQL resource or function resource has no objects by key: 404', async () => {
      await demo.get('/customer_orders/1').expect(404);
      await demo.get('/owedByCustomer/1').expect(404);
    });

    it('a method it does not answer: 405 with Allow to a caller who may use it, 403 to one who may not', async () => {
      const put = await demo.put('/customer_orders', {}).expect(405);
      expect(put.headers.allow).toBe('GET');
      const patch = await demo.patch('/owedByCustomer', {}).expect(405);
      expect(patch.headers.allow).toBe('GET');
      const none = await apiWithRoles(t, ['No grants']);
      const refused = await none.put('/customer_orders', {}).expect(403);
      expect(refused.headers.allow).toBeUndefined();
      await none.get('/customer_orders').expect(403);
    });

    it('@resources/<name> finds SQL resources and function resources alike', async () => {
      const sql = (await demo.get('/@resources/customer_orders').expect(200)).body as Row;
      expect(sql).toEqual(expect.objectContaining({ name: 'customer_orders', resource_type: 'FreeSQL', readOnly: true, methods: ['GET'] }));
      expect(sql.parameters).toEqual([{ name: 'min_total', type: 'number', required: false }]);
      const fn = (await demo.get('/@resources/owedByCustomer').expect(200)).body as Row;
      expect(fn).toEqual(expect.objectContaining({ resource_type: 'JavaScript', methods: ['GET'] }));
      expect((fn.parameters as Row[]).map((p) => p.name)).toEqual(['minOwed', 'customer']);
    });
  });
});

describe('events on extensions: bad names', () => {
  const [target] = testTargets();

  it('stop the boot naming an event resource that is no table, custom resource or extension', async () => {
    const failure = await bootFailureOf(target!, {
      ...project,
      events: { request: [{ name: 'x', resources: ['employee/noSuchFunction', 'owedByNobody'], run: () => undefined }] },
    });
    expect(failure?.message).toContain('employee/noSuchFunction');
    expect(failure?.message).toContain('owedByNobody');
  });
});
