import { beforeAll, describe, expect, it } from '@jest/globals';
import { registryOf } from '../../test/support/registry.js';
import { roleBankProblems } from '../../test/support/role-bank-problems.js';
import { parseFilter } from '../data/query/filter-parser.js';
import type { ResourceRegistry } from '../data/resource-registry.js';
import { demoProject } from '../demo/project.js';
import { RoleBank, RoleBankError } from './role-bank.js';
import type { AccessLevel, ResourcePermission, RoleDefinition, RolesDefinition } from './role-definition.js';

let registry: ResourceRegistry;

beforeAll(async () => {
  registry = await registryOf(demoProject.entities);
});

/** The problems the bank reports for `definition`; fails when the bank accepts it or throws anything else. */
function problemsOf(definition: RolesDefinition): string[] {
  return roleBankProblems(registry, definition);
}

/** The problems of one role named "R" with the given resources (no globals declared unless given). */
function problemsOfRole(resources: RoleDefinition['resources'], globals: string[] = []): string[] {
  return problemsOf({ globals, roles: [{ name: 'R', defaultAccess: 'NONE', resources }] });
}

function bankOf(definition: RolesDefinition): RoleBank {
  return new RoleBank(registry, definition, 'sqlite');
}

describe('RoleBank: rejections', () => {
  it('refuses a role defined twice', () => {
    const roles: RoleDefinition[] = [
      { name: 'Twice', defaultAccess: 'NONE' },
      { name: 'Twice', defaultAccess: 'READ' },
    ];
    expect(problemsOf({ globals: [], roles })).toEqual(['role "Twice" is defined twice']);
  });

  it('refuses a defaultAccess other than ALL, READ or NONE', () => {
    const role = { name: 'Odd', defaultAccess: 'WRITE' } as unknown as RoleDefinition;
    expect(problemsOf({ globals: [], roles: [role] })).toEqual(['role "Odd": defaultAccess must be ALL, READ or NONE']);
  });

  // Untyped role data (a JavaScript project) may name any text: the check must not take a key
  // every object inherits for a level (it once did, and the boot died of a TypeError instead).
  it('refuses a defaultAccess that names a property of every object (constructor, toString, __proto__)', () => {
    const roles = ['constructor', 'toString', '__proto__'].map((name) => ({ name, defaultAccess: name }) as unknown as RoleDefinition);
    expect(problemsOf({ globals: [], roles })).toEqual([
      'role "constructor": defaultAccess must be ALL, READ or NONE',
      'role "toString": defaultAccess must be ALL, READ or NONE',
      'role "__proto__": defaultAccess must be ALL, READ or NONE',
    ]);
  });

  it('refuses a resource the registry does not know', () => {
    expect(problemsOfRole({ nothing: { access: ['READ'] } })).toEqual(['role "R", resource "nothing": no such resource']);
  });

  it('refuses a resource named twice in one role, however spelt (the second would silently win)', () => {
    expect(problemsOfRole({ customer: { access: ['READ'] }, 'MAIN:Customer': { access: ['ALL'] } })).toEqual([
      'role "R", resource "MAIN:Customer": customer is named twice in this role (names match case-insensitively, prefixed or not)',
    ]);
  });

  it('refuses access given as something other than a list (untyped role data)', () => {
    const access = 'READ' as unknown as AccessLevel[];
    expect(problemsOfRole({ customer: { access } })).toEqual(['role "R", resource "customer": access must be a list, e.g. [\'READ\']']);
  });

  it('refuses unknown access levels, naming each', () => {
    const access = ['READ', 'WRITE', 'read'] as unknown as AccessLevel[];
    expect(problemsOfRole({ customer: { access } })).toEqual(['role "R", resource "customer": unknown access level(s) WRITE, read']);
  });

  it('refuses unknown columns in readColumns and in writeColumns, one problem each', () => {
    const customer: ResourcePermission = { access: ['ALL'], readColumns: ['name', 'shoe_size'], writeColumns: ['Balance', 'balance'] };
    expect(problemsOfRole({ customer })).toEqual([
      'role "R", resource "customer": no column "shoe_size"',
      'role "R", resource "customer": no column "Balance"',
    ]);
  });

  it('refuses a row filter naming a global the roles do not declare', () => {
    const rowFilter = 'salesrep_id = @{employee_id} or notes = @{tenant} or notes = @{region}';
    expect(problemsOfRole({ purchaseorder: { access: ['READ'], rowFilter } }, ['region'])).toEqual([
      'role "R", resource "purchaseorder": row filter names unknown global(s) @{employee_id}, @{tenant}' +
        " (declare them in the roles' globals)",
    ]);
  });

  it('refuses a row filter that does not parse, quoting it', () => {
    const [problem, ...others] = problemsOfRole({ product: { access: ['READ'], rowFilter: 'price >' } });
    expect(others).toEqual([]);
    expect(problem).toMatch(/^role "R", resource "product": row filter "price >": \S/);
  });

  it('refuses a row filter that parses but names an unknown column', () => {
    expect(problemsOfRole({ product: { access: ['READ'], rowFilter: 'cost < 20' } })).toEqual([
      'role "R", resource "product": row filter "cost < 20": unknown column "cost"',
    ]);
  });

  it('refuses a row filter whose parent path names no parent, or a column the parent lacks', () => {
    expect(
      problemsOfRole({
        lineitem: { access: ['READ'], rowFilter: 'order.salesrep_id = 1' },
        purchaseorder: { access: ['READ'], rowFilter: 'customer.shoe_size = 1' },
      }),
    ).toEqual([
      'role "R", resource "lineitem": row filter "order.salesrep_id = 1": unknown column "order.salesrep_id"',
      'role "R", resource "purchaseorder": row filter "customer.shoe_size = 1": unknown column "customer.shoe_size"',
    ]);
  });

  it('refuses a row filter whose value does not suit its column', () => {
    const [problem, ...others] = problemsOfRole({ product: { access: ['READ'], rowFilter: "price < 'cheap'" } });
    expect(others).toEqual([]);
    expect(problem).toMatch(/^role "R", resource "product": row filter "price < 'cheap'": .*price/);
  });

  it('reports every problem of every role in one RoleBankError, in the order of the definition', () => {
    const definition = {
      globals: ['employee_id'],
      roles: [
        {
          name: 'Broken',
          defaultAccess: 'NONE',
          resources: {
            nothing: { access: ['READ'] },
            customer: { access: ['READ', 'WRITE'], readColumns: ['shoe_size'], writeColumns: ['hat_size'], rowFilter: 'name = @{tenant}' },
            product: { access: ['READ'], rowFilter: 'price >' },
            purchaseorder: { access: ['READ'], rowFilter: 'nosuch = 1' },
            lineitem: { access: ['READ'], rowFilter: 'nosuch.salesrep_id = @{employee_id}' },
          },
        },
        { name: 'Broken', defaultAccess: 'SOME' },
      ],
    } as unknown as RolesDefinition;
    let thrown: unknown;
    try {
      new RoleBank(registry, definition, 'sqlite');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RoleBankError);
    const { problems, message } = thrown as RoleBankError;
    expect(problems).toEqual([
      'role "Broken", resource "nothing": no such resource',
      'role "Broken", resource "customer": unknown access level(s) WRITE',
      'role "Broken", resource "customer": no column "shoe_size"',
      'role "Broken", resource "customer": no column "hat_size"',
      `role "Broken", resource "customer": row filter names unknown global(s) @{tenant} (declare them in the roles' globals)`,
      expect.stringMatching(/^role "Broken", resource "product": row filter "price >": /),
      'role "Broken", resource "purchaseorder": row filter "nosuch = 1": unknown column "nosuch"',
      'role "Broken", resource "lineitem": row filter "nosuch.salesrep_id = @{employee_id}": unknown column "nosuch.salesrep_id"',
      'role "Broken" is defined twice',
      'role "Broken": defaultAccess must be ALL, READ or NONE',
    ]);
    expect(message).toBe(`The roles in the project are invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  });
});

describe('RoleBank: what a valid bank compiles', () => {
  const ALL_OPERATIONS = new Set(['READ', 'INSERT', 'UPDATE', 'DELETE']);

  /** The demo's resources that are not tables (its function resources), which its roles grant by name. */
  const demoNamed = (demoProject.functionResources ?? []).map((r) => ({
    name: r.name,
    kind: 'function resource',
    explicitGrantOnly: false,
  }));

  it("compiles the demo project's roles", () => {
    const bank = new RoleBank(registry, demoProject.roles, 'sqlite', demoNamed);
    expect(bank.names()).toEqual(demoProject.roles.roles.map((r) => r.name));
  });

  it('accepts the same roles for every dialect', () => {
    for (const dialect of ['mysql', 'postgres'] as const) {
      expect(new RoleBank(registry, demoProject.roles, dialect, demoNamed).names()).toEqual(demoProject.roles.roles.map((r) => r.name));
    }
  });

  it('keeps one grant per named resource, with its operations, row filter and column sets', () => {
    const bank = bankOf({
      globals: ['employee_id'],
      roles: [
        {
          name: 'Sales rep',
          defaultAccess: 'NONE',
          resources: {
            customer: { access: ['READ'], readColumns: ['name', 'balance'] },
            purchaseorder: { access: ['ALL'], rowFilter: 'salesrep_id = @{employee_id}', writeColumns: ['notes', 'paid'] },
            lineitem: { access: ['READ', 'UPDATE'], rowFilter: 'purchaseorder.salesrep_id = @{employee_id}' },
          },
        },
      ],
    });
    const role = bank.get('Sales rep')!;
    expect([...role.grants.keys()]).toEqual(['customer', 'purchaseorder', 'lineitem']);
    expect(role.grants.get('customer')).toEqual({
      role: 'Sales rep',
      operations: new Set(['READ']),
      filter: undefined,
      readColumns: new Set(['name', 'balance']),
      writeColumns: undefined,
    });
    expect(role.grants.get('purchaseorder')).toEqual({
      role: 'Sales rep',
      operations: ALL_OPERATIONS,
      filter: parseFilter('salesrep_id = @{employee_id}'),
      readColumns: undefined,
      writeColumns: new Set(['notes', 'paid']),
    });
    expect(role.grants.get('lineitem')).toEqual({
      role: 'Sales rep',
      operations: new Set(['READ', 'UPDATE']),
      filter: parseFilter('purchaseorder.salesrep_id = @{employee_id}'),
      readColumns: undefined,
      writeColumns: undefined,
    });
  });

  it('files a grant under the resource the registry resolves, from a prefixed or differently cased name', () => {
    const role = bankOf({
      globals: [],
      roles: [
        {
          name: 'R',
          defaultAccess: 'NONE',
          resources: {
            'main:Customer': { access: ['READ'] },
            PRODUCT: { access: ['UPDATE'] },
            'MAIN:purchaseorder_audit': { access: ['DELETE'] },
          },
        },
      ],
    }).get('R')!;
    expect([...role.grants.keys()]).toEqual(['customer', 'product', 'purchaseorder_audit']);
    expect(role.grants.get('product')!.operations).toEqual(new Set(['UPDATE']));
  });

  it('expands ALL to the four operations, alone or beside others', () => {
    const role = bankOf({
      globals: [],
      roles: [
        {
          name: 'R',
          defaultAccess: 'NONE',
          resources: {
            customer: { access: ['ALL'] },
            product: { access: ['READ', 'ALL'] },
            employee: { access: [] },
          },
        },
      ],
    }).get('R')!;
    expect(role.grants.get('customer')!.operations).toEqual(ALL_OPERATIONS);
    expect(role.grants.get('product')!.operations).toEqual(ALL_OPERATIONS);
    expect(role.grants.get('employee')!.operations).toEqual(new Set());
  });

  it('turns defaultAccess into defaultOperations', () => {
    const bank = bankOf({
      globals: [],
      roles: [
        { name: 'All', defaultAccess: 'ALL' },
        { name: 'Read', defaultAccess: 'READ' },
        { name: 'None', defaultAccess: 'NONE' },
      ],
    });
    expect(bank.get('All')!.defaultOperations).toEqual(ALL_OPERATIONS);
    expect(bank.get('Read')!.defaultOperations).toEqual(new Set(['READ']));
    expect(bank.get('None')!.defaultOperations).toEqual(new Set());
    expect(bank.get('None')!.grants.size).toBe(0);
  });

  it('gives metaAccess false unless the role says true', () => {
    const bank = bankOf({
      globals: [],
      roles: [
        { name: 'Plain', defaultAccess: 'ALL' },
        { name: 'Meta', defaultAccess: 'NONE', metaAccess: true },
        { name: 'No meta', defaultAccess: 'ALL', metaAccess: false },
      ],
    });
    expect(bank.get('Plain')!.metaAccess).toBe(false);
    expect(bank.get('Meta')!.metaAccess).toBe(true);
    expect(bank.get('No meta')!.metaAccess).toBe(false);
  });

  it('accepts the user identifier global without declaring it, and a row filter through a parent', () => {
    const role = bankOf({
      globals: [],
      roles: [
        {
          name: 'Mine',
          defaultAccess: 'NONE',
          resources: {
            purchaseorder: { access: ['READ'], rowFilter: 'notes = @{_apikey.user_identifier}' },
            lineitem: { access: ['READ'], rowFilter: "purchaseorder.customer_name = 'Alpha'" },
          },
        },
      ],
    }).get('Mine')!;
    expect(role.grants.get('purchaseorder')!.filter).toEqual(parseFilter('notes = @{_apikey.user_identifier}'));
    expect(role.grants.get('lineitem')!.filter).toEqual(parseFilter("purchaseorder.customer_name = 'Alpha'"));
  });

  it('lists its roles in the order defined and knows no other', () => {
    const bank = bankOf({
      globals: [],
      roles: [
        { name: 'B', defaultAccess: 'NONE' },
        { name: 'A', defaultAccess: 'READ' },
      ],
    });
    expect(bank.names()).toEqual(['B', 'A']);
    expect(bank.get('A')!.name).toBe('A');
    expect(bank.get('C')).toBeUndefined();
    expect(bank.get('a')).toBeUndefined();
  });
});

describe('RoleBank: named endpoints (function, SQL resources, procedures)', () => {
  const named = [
    { name: 'TopCustomers', kind: 'SQL resource', explicitGrantOnly: false },
    { name: 'order_totals', kind: 'procedure', explicitGrantOnly: true },
  ];
  const roleWith = (resources: RoleDefinition['resources'], defaultAccess: RoleDefinition['defaultAccess'] = 'NONE') => ({
    globals: [],
    roles: [{ name: 'r', defaultAccess, resources }],
  });

  it('grants one by name, case-insensitively, with access alone', () => {
    const bank = new RoleBank(registry, roleWith({ topcustomers: { access: ['READ'] } }), 'sqlite', named);
    expect([...bank.get('r')!.namedGrants.get('topcustomers')!]).toEqual(['READ']);
  });

  it("refuses a table's options on one, and an unknown name, in one list", () => {
    const definition = roleWith({ TopCustomers: { access: ['READ'], rowFilter: 'x = 1' }, Nowhere: { access: ['READ'] } });
    expect(() => new RoleBank(registry, definition, 'sqlite', named)).toThrow(
      /TopCustomers is a SQL resource: it takes access alone, not rowFilter[\s\S]*resource "Nowhere": no such resource/,
    );
  });
});
