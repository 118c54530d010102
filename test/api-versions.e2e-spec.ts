import { ErrorCode } from '../src/common/error-codes.js';
import { demoProject } from '../src/demo/project.js';
import { demoResources } from '../src/demo/resources.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import { apiWithKey, type Api } from './support/api.js';
import { createManualToken } from './support/auth.js';
import { bootFailureOf, describeEachTarget, suiteApp, testTargets, type TestApp } from './support/test-app.js';

/**
 * API versions with resources of their own (issue 28, item 6) through HTTP on each database: the demo's v1 and v2
 * differ in `Customers` (v1 shows `credit_limit`, v2 `creditLimit`), each version's `@docs` and `@resources` show its
 * own shape, a write through each version works in its own terms, the shared resources are the same in both, and a
 * definition naming a version the project does not declare stops the boot with every problem listed.
 */

type Row = Record<string, unknown> & { '@metadata': { href: string; checksum: string } };
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describeEachTarget('API versions', (target) => {
  let t: TestApp;
  let v1: Api;
  let v2: Api;

  suiteApp(target, {}, async (app) => {
    t = app;
    const key = await createManualToken(t, { roles: ['Full access'], label: 'versions' });
    v1 = apiWithKey(t, key);
    v2 = apiWithKey({ ...t, base: t.base.replace(/\/v1$/, '/v2') }, key);
  });

  it("serves each version's Customers in its own shape", async () => {
    const [old] = (await v1.get('/Customers/Alpha%20and%20Sons').expect(200)).body as Row[];
    const [current] = (await v2.get('/Customers/Alpha%20and%20Sons').expect(200)).body as Row[];
    expect(Object.keys(old!)).toEqual(['@metadata', 'name', 'balance', 'credit_limit', 'Orders']);
    expect(Object.keys(current!)).toEqual(['@metadata', 'name', 'balance', 'creditLimit', 'Orders']);
    expect(current!.creditLimit).toEqual(old!.credit_limit);
    expect(current!['@metadata'].href).toMatch(/\/v2\/Customers\/Alpha%20and%20Sons$/);
    // Its levels and named filters come along.
    await v2.get('/Customers.Orders?pagesize=1').expect(200);
    await v2.get(`/Customers?userfilter=${encodeURIComponent('balanceAtLeast(min:0)')}&pagesize=1`).expect(200);
  });

  it('writes through each version in its own terms', async () => {
    await v1.post('/customer', { name: 'Versioned Co', credit_limit: 100 }).expect(201);
    const [before] = (await v1.get('/Customers/Versioned%20Co').expect(200)).body as Row[];
    const viaV1 = await v1.put('/Customers/Versioned%20Co', { '@metadata': before!['@metadata'], credit_limit: 200 }).expect(200);
    expect(viaV1.body.txsummary).toEqual([expect.objectContaining({ credit_limit: 200 })]);

    const [seen] = (await v2.get('/Customers/Versioned%20Co').expect(200)).body as Row[];
    const viaV2 = await v2.put('/Customers/Versioned%20Co', { '@metadata': seen!['@metadata'], creditLimit: 300 }).expect(200);
    expect(viaV2.body.txsummary).toEqual([expect.objectContaining({ creditLimit: 300 })]);
    expect(viaV2.body.txsummary[0]).not.toHaveProperty('credit_limit');
    const [stored] = (await v1.get('/customer/Versioned%20Co').expect(200)).body as Row[];
    expect(stored!.credit_limit).toBe(300);

    // v1's name is no attribute of v2's Customers, nor v2's of v1's.
    const [now] = (await v2.get('/Customers/Versioned%20Co').expect(200)).body as Row[];
    const wrong = await v2.put('/Customers/Versioned%20Co', { '@metadata': now!['@metadata'], credit_limit: 400 }).expect(400);
    expect(wrong.body.errorCode).toBe(ErrorCode.UNKNOWN_COLUMN);
    const [fromV1] = (await v1.get('/Customers/Versioned%20Co').expect(200)).body as Row[];
    await v1.put('/Customers/Versioned%20Co', { '@metadata': fromV1!['@metadata'], creditLimit: 400 }).expect(400);
    // The README's example: a checksum of "override", in v2's terms.
    await v2.put('/Customers/Versioned%20Co', { '@metadata': { checksum: 'override' }, creditLimit: 500 }).expect(200);
    expect(((await v2.get('/Customers/Versioned%20Co').expect(200)).body as Row[])[0]!.creditLimit).toBe(500);
  });

  it("documents each version's own shape in its @docs", async () => {
    const docV1 = (await v1.get('/@docs').expect(200)).body as Json;
    const docV2 = (await v2.get('/@docs').expect(200)).body as Json;
    expect(docV1.info.version).toBe('v1');
    expect(docV2.info.version).toBe('v2');
    expect(Object.keys(docV1.components.schemas.Customers.properties)).toContain('credit_limit');
    expect(Object.keys(docV1.components.schemas.Customers.properties)).not.toContain('creditLimit');
    expect(Object.keys(docV2.components.schemas.Customers.properties)).toContain('creditLimit');
    expect(Object.keys(docV2.components.schemas.Customers.properties)).not.toContain('credit_limit');
    // v2's customers carry the field its response event adds; v1's schema does not name it.
    expect(docV2.components.schemas.customer.properties.balance_status.description).toMatch(/customerBalanceStatus/);
    expect(docV1.components.schemas.customer.properties).not.toHaveProperty('balance_status');
    // Shared resources: the same in both.
    expect(docV2.components.schemas.OrderEntry).toEqual(docV1.components.schemas.OrderEntry);
    expect(docV2.paths['/Customers']).toBeDefined();
  });

  it('lists the versions in @versions, and each version its resources in @resources', async () => {
    const versions = (await v1.get('/@versions').expect(200)).body as Json[];
    expect(versions.map((v) => v.name)).toEqual(['v1', 'v2']);
    expect(versions[1]!.docs).toMatch(/\/rest\/default\/demo\/v2\/@docs$/);
    expect(versions[1]!.customResources).toEqual([
      { name: 'Customers', versions: ['v2'] },
      { name: 'OrderEntry', versions: null },
      { name: 'CustomerDebts', versions: null },
    ]);
    const resources = (await v2.get('/@resources').expect(200)).body as Json[];
    expect(resources.filter((r) => r.resource_type === 'Custom').map((r) => [r.name, r.apiVersion])).toEqual([
      ['Customers', 'v2'],
      ['OrderEntry', 'v2'],
      ['CustomerDebts', 'v2'],
    ]);
    const one = (await v2.get('/@resources/Customers').expect(200)).body as Json;
    expect(one.attributes.map((a: Json) => a.name)).toEqual(['name', 'balance', 'creditLimit']);
  });

  it('answers an unknown version 404', async () => {
    const v3 = apiWithKey({ ...t, base: t.base.replace(/\/v1$/, '/v3') }, await createManualToken(t, { roles: ['Full access'] }));
    await v3.get('/Customers').expect(404);
  });
});

describe('API versions: bad definitions', () => {
  const [target] = testTargets();

  const bootFailure = (project: ProjectDefinition): Promise<Error | undefined> => bootFailureOf(target!, project);

  it('stop the boot naming every unknown version and every clash', async () => {
    const failure = await bootFailure({
      ...demoProject,
      resources: [
        ...demoResources,
        { name: 'Legacy', entity: 'customer', versions: ['v0', 'v9'] },
        { name: 'OrderEntry', entity: 'purchaseorder', versions: ['v2'] },
      ],
    });
    expect(failure?.name).toBe('CustomResourceError');
    expect(failure!.message).toContain('resource "Legacy": unknown API version(s) v0, v9 (the project declares v1, v2)');
    expect(failure!.message).toContain('resource "OrderEntry" is defined twice for v2');
  });

  it('refuse an event naming a resource one of its versions does not have', async () => {
    const failure = await bootFailure({
      ...demoProject,
      resources: [{ name: 'Recent', entity: 'purchaseorder', versions: ['v2'] }],
      events: { request: [{ name: 'recentOnly', resources: ['Recent'], run: () => undefined }] },
    });
    expect(failure?.name).toBe('ApiEventsError');
    expect(failure!.message).toContain('request event "recentOnly": resource "Recent" is not in API version(s) v1');
  });
});
