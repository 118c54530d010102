import { beforeAll, describe, expect, it } from '@jest/globals';
import { ViewEntity } from 'typeorm';
import { registryOf } from '../../test/support/registry.js';
import { roleBankProblems } from '../../test/support/role-bank-problems.js';
import { ViewColumn } from '../data/view-column.js';
import type { Principal } from '../common/principal.js';
import type { ResourceRegistry } from '../data/resource-registry.js';
import { demoProject } from '../demo/project.js';
import { ResourceAccess } from './resource-access.js';
import { RoleBank } from './role-bank.js';
import type { RolesDefinition } from './role-definition.js';

@ViewEntity({ name: 'order_totals', synchronize: false })
class OrderTotals {
  @ViewColumn({ type: 'varchar', length: 40 })
  customer_name!: string;

  @ViewColumn({ type: 'decimal', precision: 10, scale: 2, nullable: true })
  total!: string | null;
}

let registry: ResourceRegistry;

beforeAll(async () => {
  registry = await registryOf([...demoProject.entities, OrderTotals]);
});

const principal = (roles: string[]): Principal => ({ tokenId: 1, roleNames: roles, globals: {}, userIdentifier: 'u' });

function problemsOf(definition: RolesDefinition): string[] {
  return roleBankProblems(registry, definition);
}

describe('views: a read-only resource for every role', () => {
  it('reads the view entity as a resource without a key, with the types its columns declare', () => {
    const view = registry.get('order_totals');
    expect(view).toMatchObject({ view: true, primaryKey: [], parents: [], children: [], readBackAfterWrite: false });
    expect(view.columns.map((c) => [c.name, c.kind, c.length ?? c.precision])).toEqual([
      ['customer_name', 'string', 40],
      ['total', 'decimal', 10],
    ]);
    expect(registry.get('customer').view).toBe(false);
  });

  it('refuses a grant to write a view, and writeColumns on one, at boot', () => {
    expect(
      problemsOf({
        globals: [],
        roles: [
          {
            name: 'W',
            defaultAccess: 'NONE',
            resources: { order_totals: { access: ['READ', 'INSERT', 'DELETE'], writeColumns: ['total'] } },
          },
        ],
      }),
    ).toEqual([
      'role "W", resource "order_totals": order_totals is a view, which is read-only: grant READ (or ALL, which is READ on a view), not INSERT, DELETE',
      'role "W", resource "order_totals": order_totals is a view, which is read-only: it takes no writeColumns',
    ]);
  });

  it('makes ALL, granted or by default, READ on a view, and leaves tables alone', () => {
    const bank = new RoleBank(
      registry,
      {
        globals: [],
        roles: [
          { name: 'Everything', defaultAccess: 'ALL' },
          { name: 'Granted', defaultAccess: 'NONE', resources: { order_totals: { access: ['ALL'] } } },
          { name: 'Nothing', defaultAccess: 'NONE' },
        ],
      },
      'sqlite',
    );
    const view = registry.get('order_totals');
    for (const role of ['Everything', 'Granted']) {
      const access = ResourceAccess.of(bank, principal([role]), view);
      expect([role, access.can('READ'), access.can('INSERT'), access.can('UPDATE'), access.can('DELETE')]).toEqual([
        role,
        true,
        false,
        false,
        false,
      ]);
    }
    expect(ResourceAccess.of(bank, principal(['Nothing']), view).can('READ')).toBe(false);
    expect(ResourceAccess.of(bank, principal(['Everything']), registry.get('customer')).can('DELETE')).toBe(true);
  });
});
