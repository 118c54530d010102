import { beforeAll, describe, expect, it } from '@jest/globals';
import { registryOf } from '../../../test/support/registry.js';
import type { Resource, ResourceRegistry } from '../../data/resource-registry.js';
import type { CanonicalRow } from '../../data/value-codec.js';
import { demoProject } from '../../demo/project.js';
import { ResourceAccess } from '../../security/resource-access.js';
import { RoleBank } from '../../security/role-bank.js';
import { ObjectLinks } from './object-links.js';
import { parseSysFilter } from '../../data/query/sysfilter-parser.js';

const BASE = 'http://h/rest/a/p/v1';
const TYPE = 'urn:caliveapicreator:p:';

let registry: ResourceRegistry;
let bank: RoleBank;

beforeAll(async () => {
  registry = await registryOf(demoProject.entities);
  bank = new RoleBank(
    registry,
    {
      globals: [],
      roles: [
        { name: 'Reader', defaultAccess: 'READ' },
        {
          name: 'Orders only',
          defaultAccess: 'NONE',
          resources: { purchaseorder: { access: ['READ'] }, lineitem: { access: ['READ'], readColumns: ['lineitem_id', 'qty_ordered'] } },
        },
      ],
    },
    'sqlite',
  );
});

function linksOf(roles: string[], table: string, row: CanonicalRow, readable?: ReadonlySet<string>) {
  const resource: Resource = registry.get(table);
  const access = ResourceAccess.of(bank, { tokenId: 1, userIdentifier: null, roleNames: roles, globals: {} }, resource);
  return ObjectLinks.plan(resource, access, registry, BASE, TYPE).of(row, readable);
}

const order: CanonicalRow = {
  order_number: 7,
  customer_name: "O'Brien & Co",
  salesrep_id: 3,
  amount_total: '10.0000',
  paid: false,
  notes: null,
};

describe('ObjectLinks', () => {
  it('links a parent by its key and children by a sysfilter on their foreign key, quoting strings with quotes doubled', () => {
    expect(linksOf(['Reader'], 'purchaseorder', order)).toEqual([
      { href: `${BASE}/customer/O'Brien%20%26%20Co`, rel: 'parent', role: 'customer', type: `${TYPE}main:customer` },
      { href: `${BASE}/employee/3`, rel: 'parent', role: 'salesrep', type: `${TYPE}main:employee` },
      { href: `${BASE}/lineitem?sysfilter=equal(order_number:7)`, rel: 'children', role: 'lineitem', type: `${TYPE}main:lineitem` },
      {
        href: `${BASE}/payment_allocation?sysfilter=equal(order_number:7)`,
        rel: 'children',
        role: 'payment_allocation',
        type: `${TYPE}main:payment_allocation`,
      },
    ]);
    const [orders] = linksOf(['Reader'], 'customer', { name: "O'Brien & Co", balance: '0', credit_limit: '1' });
    expect(orders!.href).toBe(`${BASE}/purchaseorder?sysfilter=equal(customer_name:'O''Brien%20%26%20Co')`);
    expect(decodeURIComponent(orders!.href.split('sysfilter=')[1]!)).toBe("equal(customer_name:'O''Brien & Co')");
  });

  it('writes a backslash in a key twice, so the link finds the rows (a backslash starts an escape)', () => {
    const name = 'C:\\new\\u0041\\';
    const [orders] = linksOf(['Reader'], 'customer', { name, balance: '0', credit_limit: '1' });
    const sysfilter = decodeURIComponent(orders!.href.split('sysfilter=')[1]!);
    expect(sysfilter).toBe("equal(customer_name:'C:\\\\new\\\\u0041\\\\')");
    expect(parseSysFilter(sysfilter)).toMatchObject({ right: { kind: 'string', value: name } });
  });

  it('leaves out a parent whose foreign key is null', () => {
    expect(linksOf(['Reader'], 'purchaseorder', { ...order, salesrep_id: null }).map((l) => l.role)).toEqual([
      'customer',
      'lineitem',
      'payment_allocation',
    ]);
  });

  it('leaves out tables the caller may not read, and children it may not filter on their foreign key', () => {
    // customer and employee: no grant; lineitem: readable, but not its order_number.
    expect(linksOf(['Orders only'], 'purchaseorder', order)).toEqual([]);
  });

  it("builds no link from a column the caller may not read in this row, except the key the object's href shows", () => {
    const readable = new Set(['order_number', 'amount_total']);
    expect(linksOf(['Reader'], 'purchaseorder', order, readable).map((l) => l.role)).toEqual(['lineitem', 'payment_allocation']);
    expect(linksOf(['Reader'], 'purchaseorder', order, new Set(['amount_total'])).map((l) => l.role)).toEqual([
      'lineitem',
      'payment_allocation',
    ]);
  });
});
