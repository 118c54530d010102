import { columnOf, resourceOf } from '../../../test/support/resource-shapes.js';
import type { Resource, ResourceRegistry } from '../../data/resource-registry.js';
import type { CallerGrants } from '../../security/caller-access.decorator.js';
import type { ResourceAccess } from '../../security/resource-access.js';
import type { CustomResourceRegistry } from '../levels/custom-resource-registry.js';
import { DocumentPlanner } from './document-plan.js';
import { MixedLevels } from './mixed-levels.js';
import { tableLevel as tableDocument } from '../levels/table-level.js';
import { documentLevel } from './document-level.js';

const tableLevel = (resource: Parameters<typeof tableDocument>[0]) => documentLevel(tableDocument(resource));

const customer = resourceOf('customer', [columnOf('name', 'string', true), columnOf('credit_limit', 'integer')]);
const product = resourceOf('product', [columnOf('product_number', 'integer', true), columnOf('price', 'integer')]);
const secret = resourceOf('secret', [columnOf('id', 'integer', true)]);
const byName = new Map<string, Resource>([
  ['customer', customer],
  ['main:customer', customer],
  ['product', product],
  ['main:product', product],
  ['secret', secret],
]);
const tables = { find: (name: string) => byName.get(name.toLowerCase()) } as unknown as ResourceRegistry;
const custom = { find: () => undefined } as unknown as CustomResourceRegistry;
// The caller holds grants on every table but `secret`.
const grants: CallerGrants = {
  to: (resource) =>
    ({ grants: resource === secret ? [] : [{ role: 'r', operations: new Set(['READ']) }], can: () => true }) as unknown as ResourceAccess,
};
const mixed = new MixedLevels(tables, custom, grants, undefined);
const BASE = 'http://h/rest/default/demo/v1';

describe('MixedLevels', () => {
  it('names a level by @metadata.entity, plain or prefixed, in any case', () => {
    expect(mixed.levelOf({ '@metadata': { entity: 'PRODUCT' } }, tableLevel(customer))).toBe(tableLevel(product));
    expect(mixed.levelOf({ '@metadata': { entity: 'main:product' } }, undefined)).toBe(tableLevel(product));
    expect(mixed.levelOf({ '@metadata': { entity: 'customer' } }, tableLevel(customer))).toBeUndefined();
  });

  it("names a level by a full href's resource segment; the request's own level (or table) stays the request's", () => {
    expect(mixed.levelOf({ '@metadata': { href: `${BASE}/product/3` } }, tableLevel(customer))).toBe(tableLevel(product));
    expect(mixed.levelOf({ '@metadata': { href: `${BASE}/Customer/A` } }, tableLevel(customer))).toBeUndefined();
    const customers = { ...tableLevel(customer), path: 'Customers' };
    expect(mixed.levelOf({ '@metadata': { href: `${BASE}/customer/A` } }, customers)).toBeUndefined();
    // Inside a resource's body an href naming nothing is the writer's to refuse (as before); at the root it is 400 here.
    expect(mixed.levelOf({ '@metadata': { href: `${BASE}/nothing/3` } }, tableLevel(customer))).toBeUndefined();
    expect(() => mixed.levelOf({ '@metadata': { href: `${BASE}/nothing/3` } }, undefined)).toThrow(/No resource named "nothing"/);
  });

  it('answers a table the caller holds no grant on in the words of an unknown one', () => {
    const message = (entity: string): string => {
      try {
        mixed.levelOf({ '@metadata': { entity } }, undefined);
      } catch (error) {
        return (error as Error).message.replace(entity, '<name>');
      }
      return 'no error';
    };
    expect(message('secret')).toBe(message('nosuch'));
    expect(message('secret')).toMatch(/No resource named/);
    // Inside a resource's body an href to it is left to the writer, as one to no resource is.
    expect(mixed.levelOf({ '@metadata': { href: `${BASE}/secret/1` } }, tableLevel(customer))).toBeUndefined();
  });

  it('refuses an entity that is not a non-empty string', () => {
    expect(() => mixed.levelOf({ '@metadata': { entity: 3 } }, undefined)).toThrow(/"@metadata.entity" must be a resource name/);
  });

  it('plans every object on the level it names; at the root one that names none is 400; all count against the limit', () => {
    const planner = new DocumentPlanner('UPDATE');
    const planned = planner.plan(
      undefined,
      [
        { '@metadata': { entity: 'customer' }, name: 'A', credit_limit: 1 },
        { '@metadata': { href: `${BASE}/product/3` }, price: 2 },
      ],
      mixed,
    );
    expect(planned.map((o) => [o.level.path, o.sent])).toEqual([
      ['customer', { name: 'A', credit_limit: 1 }],
      ['product', { price: 2 }],
    ]);
    expect(() => new DocumentPlanner('INSERT').plan(undefined, [{ name: 'A' }], mixed)).toThrow(/must name its resource/);
    const many = Array.from({ length: 1001 }, () => ({ '@metadata': { entity: 'product' }, price: 1 }));
    expect(() => new DocumentPlanner('INSERT').plan(undefined, many, mixed)).toThrow(/At most 1000 objects/);
  });
});
