import { demoProject } from '../src/demo/project.js';
import type { CustomResourceDefinition } from '../src/resources/custom/custom-resource-definition.js';
import { apiAs, suiteAppAs, type Api } from './support/api.js';
import { describeEachTarget, startTestApp, testTargets, type TestApp } from './support/test-app.js';

describeEachTarget('custom resources: reading', (target) => {
  let t: TestApp;
  let api: Api;

  suiteAppAs(target, 'demo', (app, client) => {
    t = app;
    api = client;
  });

  it("routes a custom resource and its levels to their tables' grants; an unknown level is 404", async () => {
    expect((await api.get('/NoSuch.Orders').expect(404)).body.errorCode).toBe(4040);
    expect((await api.get('/Customers.NoSuch').expect(404)).body.errorCode).toBe(4040);
    void t;
  });
});

describe('custom resources: boot check', () => {
  const target = testTargets()[0]!;
  const boot = async (resources: CustomResourceDefinition[]): Promise<string> => {
    try {
      const t = await startTestApp(target, { project: { ...demoProject, resources } });
      await t.close();
      return '';
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('lists every problem of the definitions in one error', async () => {
    const message = await boot([
      { name: 'customer', entity: 'customer' },
      { name: 'Bad.Name', entity: 'customer' },
      { name: 'Nowhere', entity: 'nosuchtable' },
      {
        name: 'Docs',
        entity: 'customer',
        attributes: ['name', { name: 'Money', column: 'nosuch' }, { name: 'name', column: 'balance' }],
        filter: 'balance >',
        order: 'nosuch desc',
        userFilters: { f: 'Nope = :x', 'bad name': 'name = :x' },
        userOrders: { o: 'balance sideways' },
        children: [
          { name: 'Orders', entity: 'product' },
          { name: 'name', entity: 'purchaseorder' },
          { name: 'Lines', entity: 'purchaseorder', via: 'salesrep' },
        ],
      },
    ]);
    expect(message).toContain('The custom resources in the project are invalid');
    for (const part of [
      'resource "customer": a table resource has that name',
      'resource "Bad.Name": a name is',
      'resource "Nowhere": no such table "nosuchtable"',
      'attribute "Money": customer has no column "nosuch"',
      'attribute "name" is named twice',
      'resource "Docs": filter:',
      'resource "Docs": order: unknown column "nosuch"',
      'userFilter "f": unknown column "Nope"',
      'userFilter "bad name"',
      'userOrder "o"',
      'child "Orders": no relation links product to its parent customer',
      'child "name": an attribute of Docs has the same name',
      'child "Lines": purchaseorder has no relation "salesrep" to customer (it has: customer)',
    ]) {
      expect(message).toContain(part);
    }
  });

  it('boots with the demo resources', async () => {
    expect(await boot(demoProject.resources ?? [])).toBe('');
  });
});

void apiAs;
