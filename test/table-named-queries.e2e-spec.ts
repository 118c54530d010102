import { demoProject } from '../src/demo/project.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import type { TableQueriesDefinition } from '../src/documents/levels/custom-resource-definition.js';
import { apiWithRoles, suiteAppAs, type Api } from './support/api.js';
import { capturedLog } from './support/captured-log.js';
import { describeEachTarget, startTestApp, testTargets, type TestApp } from './support/test-app.js';

type Row = Record<string, unknown> & { '@metadata'?: { href?: string; next_batch?: string } };

const q = (text: string): string => encodeURIComponent(text);
const names = (rows: Row[]): unknown[] => rows.filter((r) => r.name !== undefined).map((r) => r.name);

/**
 * Issue 27 item 2: named filters and orders on table resources (`tableQueries` in the project),
 * used by `userfilter`/`userorder` on the table's GET as on a custom resource's. The demo declares
 * the LAC command-line client README's `myFilter(custname:…)` and `sortByName` on customer.
 */
describeEachTarget('named filters and orders on tables', (target) => {
  let t: TestApp;
  let api: Api;
  suiteAppAs(target, 'demo', (app, client) => {
    t = app;
    api = client;
  });

  it("runs the LAC CLI README's userfilter and userorder on customer, plain and prefixed", async () => {
    for (const resource of ['customer', 'main:customer', 'CUSTOMER']) {
      const res = await api.get(`/${resource}?userfilter=${q("myFilter(custname:'Alpha and Sons')")}&userorder=sortByName`).expect(200);
      expect(names(res.body as Row[])).toEqual(['Alpha and Sons']);
    }
  });

  it('orders by the named order, after the request order, and pages with the parameters kept', async () => {
    const all = (await api.get('/customer?pagesize=100').expect(200)).body as Row[];
    const sorted = names(all)
      .map(String)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const first = await api.get('/customer?userorder=sortByName&pagesize=3').expect(200);
    const rows = first.body as Row[];
    expect(names(rows)).toEqual(sorted.slice(0, 3));
    const next = rows.at(-1)!['@metadata']!.next_batch!;
    expect(next).toContain('userorder=sortByName');
    expect(names((await api.getUrl(next).expect(200)).body as Row[])).toEqual(sorted.slice(3, 6));
    // The request's own order comes first; the named one breaks its ties.
    const byBalance = (await api.get('/customer?sysorder=(balance:desc)&userorder=sortByName&pagesize=100').expect(200)).body as Row[];
    const balances = byBalance.map((r) => Number(r.balance));
    expect(balances).toEqual([...balances].sort((a, b) => b - a));
  });

  it('ANDs the named filter with filter and sysfilter, binding the value (no text reaches SQL)', async () => {
    const none = await api
      .get(`/customer?userfilter=${q("myFilter(custname:'Alpha and Sons')")}&sysfilter=${q('less(balance:-1)')}`)
      .expect(200);
    expect(none.body).toEqual([]);
    const injected = await api.get(`/customer?userfilter=${q("myFilter(custname:'x'' or ''1''=''1')")}`).expect(200);
    expect(injected.body).toEqual([]);
  });

  it('refuses an unknown name, parameter, a missing or repeated one, and a named query given twice (400 / 4000)', async () => {
    const refused = async (query: string, text: string): Promise<void> => {
      const res = await api.get(`/customer?${query}`).expect(400);
      expect(res.body.errorCode).toBe(4000);
      expect(res.body.errorMessage).toContain(text);
    };
    await refused(`userfilter=${q('nosuch(a:1)')}`, 'customer has no userfilter "nosuch"');
    await refused('userorder=nosuch', 'customer has no userorder "nosuch"');
    await refused(`userfilter=${q('myFilter(other:1)')}`, 'has no parameter "other"');
    await refused(`userfilter=${q('myFilter()')}`, 'needs a value for: custname');
    await refused('userorder=sortByName&userorder=sortByName', 'may be given once');
    // Tables without named queries have none.
    await refused('userorder=sortByName'.replace('sortByName', 'richestFirst'), 'no userorder "richestFirst"');
    expect((await api.get('/product?userorder=sortByName').expect(400)).body.errorMessage).toContain(
      'product has no userorder "sortByName"',
    );
    // Not on one object, as on a custom resource.
    expect((await api.get('/customer/Alpha%20and%20Sons?userorder=sortByName').expect(400)).body.errorCode).toBe(4000);
  });

  it("applies the caller's row filters and column grants: a named filter cannot read what the roles hide", async () => {
    const sam = await apiWithRoles(t, ['Sales rep'], { employee_id: 1 });
    const own = (await sam.get('/customer?pagesize=100').expect(200)).body as Row[];
    const named = (await sam.get('/customer?userorder=sortByName&pagesize=100').expect(200)).body as Row[];
    expect(new Set(names(named))).toEqual(new Set(names(own)));
  });

  it('lists userfilter and userorder on the table GET in @docs', async () => {
    const docs = (await api.get('/@docs').expect(200)).body as {
      paths: Record<string, { get?: { parameters: Array<{ name?: string; description?: string; schema?: { enum?: string[] } }> } }>;
    };
    const params = docs.paths['/customer']!.get!.parameters;
    const userfilter = params.find((p) => p.name === 'userfilter');
    expect(userfilter?.description).toContain('myFilter(custname:value)');
    expect(params.find((p) => p.name === 'userorder')?.schema?.enum).toEqual(['sortByName']);
    expect(docs.paths['/product']!.get!.parameters.some((p) => p.name === 'userfilter')).toBe(false);
  });
});

describe('named filters and orders on tables: boot checks', () => {
  const target = testTargets()[0]!;
  const withQueries = (tableQueries: Record<string, TableQueriesDefinition>): ProjectDefinition => ({ ...demoProject, tableQueries });

  it('lists every problem of the definitions in one error', async () => {
    let message = '';
    try {
      const t = await startTestApp(target, {
        project: withQueries({
          nosuchtable: { userOrders: { a: 'name' } },
          customer: {
            userFilters: { f: 'nope = :x', 'bad name': 'name = :x', g: 'name = @{employee_id}' },
            userOrders: { o: 'name sideways' },
          },
          'main:CUSTOMER': { userOrders: { b: 'name' } },
          product: { userFilter: {} } as unknown as TableQueriesDefinition,
        }),
      });
      await t.close();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("The tables' named filters and orders (tableQueries) in the project are invalid");
    for (const part of [
      'table "nosuchtable": no table resource has that name',
      'table "customer", userFilter "f": unknown column "nope"',
      'table "customer", userFilter "bad name"',
      'table "customer", userFilter "g": a named filter may not use @{globals}',
      'table "customer", userOrder "o"',
      'table "main:CUSTOMER" is the table "customer" again',
      'table "product": unknown field(s) userFilter',
    ]) {
      expect(message).toContain(part);
    }
  });

  it('names the columns a table query reads that no index starts with, in the boot note', async () => {
    const log = capturedLog('warn');
    const t = await startTestApp(target, {
      project: withQueries({ product: { userFilters: { cheap: 'price < :max' }, userOrders: { byName: 'name' } } }),
      logger: log.logger,
    });
    await t.close();
    const notes = log.records().filter((r) => String(r.msg).startsWith('Named filters and orders read columns no index starts with'));
    expect(notes).toHaveLength(1);
    expect(notes[0]!.columns).toEqual(['product.price']);
    expect(notes[0]!.msg).toContain('product.price (product userfilter cheap)');
  });
});
