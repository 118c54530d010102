import { beforeAll, describe, expect, it } from '@jest/globals';
import { registryOf } from '../../../test/support/registry.js';
import type { ResourceRegistry } from '../../data/resource-registry.js';
import { Customer } from '../../demo/entities/customer.entity.js';
import { Employee } from '../../demo/entities/employee.entity.js';
import { demoFunctionResources, demoFunctions } from '../../demo/functions.js';
import { demoProject } from '../../demo/project.js';
import { demoRoles } from '../../demo/roles.js';
import type { FunctionDefinition, FunctionResourceDefinition, ParameterType } from './function-definition.js';
import { FunctionRegistry, FunctionsError } from './function-registry.js';

let registry: ResourceRegistry;

beforeAll(async () => {
  registry = await registryOf(demoProject.entities);
});

/** One custom resource, `Customers`, as names go. */
const noCustom = { resources: [{ name: 'Customers', root: { path: 'Customers', subLevels: [], functionLevels: [] } }] as never };

function build(functions: FunctionDefinition[], resources: FunctionResourceDefinition[] = []): FunctionRegistry {
  return new FunctionRegistry(functions, resources, registry, noCustom, demoRoles);
}

function problemsOf(functions: FunctionDefinition[], resources: FunctionResourceDefinition[] = []): string[] {
  try {
    build(functions, resources);
  } catch (error) {
    if (error instanceof FunctionsError) return error.problems;
    throw error;
  }
  throw new Error('the registry accepted it');
}

class NotAnEntity {
  readonly id = 1;
}

describe('FunctionRegistry', () => {
  it("accepts the demo's functions and finds each by its route, case-insensitively", () => {
    const functions = build(demoFunctions, demoFunctionResources);
    expect(functions.demandOf({ method: 'GET', params: { resource: 'Employee', pk: '1', attribute: 'GIVERAISE' } })?.label).toBe(
      'function giveRaise',
    );
    expect(functions.demandOf({ method: 'POST', params: { resource: 'main:employee', pk: '1', attribute: 'giveRaise' } })?.operation).toBe(
      'UPDATE',
    );
    expect(functions.demandOf({ method: 'GET', params: { resource: 'employee', pk: 'giveRaise' } })).toBeUndefined();
    expect(functions.demandOf({ method: 'GET', params: { resource: 'owedByCustomer' } })?.endpoint?.name).toBe('owedByCustomer');
    expect(functions.demandOf({ method: 'GET', params: { resource: 'customer' } })).toBeUndefined();
  });

  it('reports every problem of every function and function resource in one error', () => {
    const run = (): null => null;
    const problems = problemsOf(
      [
        { name: 'bad name!', kind: 'row', entity: Employee, run },
        { name: 'nowhere', kind: 'row', entity: NotAnEntity, run } as unknown as FunctionDefinition,
        {
          name: 'typed',
          kind: 'resource',
          entity: Customer,
          run,
          parameters: { p: { type: 'money' as ParameterType }, auth: { type: 'string' } },
        },
        { name: 'guarded', kind: 'resource', entity: Customer, run, roles: ['Nobody'], access: 'WRITE' as 'UPDATE', timeoutMs: 0 },
        { name: 'twice', kind: 'resource', entity: Customer, run },
        { name: 'TWICE', kind: 'resource', entity: Customer, run },
        { name: 'balance', kind: 'row', entity: Customer, run },
        {
          name: 'bounds',
          kind: 'resource',
          entity: Customer,
          run,
          parameters: { n: { type: 'number', min: 5, max: 1 }, s: { type: 'boolean', maxLength: 3 } },
        },
      ],
      [
        { name: 'customer', get: run },
        { name: 'Customers', get: run },
        { name: 'noGet' } as unknown as FunctionResourceDefinition,
        { name: 'rows', get: run, rows: { entity: Customer, attributes: ['name', 'shoe_size'] } },
        { name: 'paged', get: run, parameters: { pagesize: { type: 'integer' } } },
      ],
    );
    expect(problems).toEqual([
      'function "bad name!": a name is letters, digits and _ (not first), at most 64',
      'function "nowhere": entity is not a table of the project (give one of its entity classes)',
      'function "typed", parameter "p": unknown type "money" (number, integer, string, boolean, date)',
      'function "typed": the parameter "auth" is the API\'s own',
      'function "guarded": no role named "Nobody"',
      'function "guarded": access must be one of READ, INSERT, UPDATE, DELETE',
      'function "guarded": timeoutMs must be a whole number of milliseconds from 1 to 120000',
      'function "TWICE": customer has two resource functions of that name (names match case-insensitively)',
      'function "balance": customer has a column of that name, whose value <customer>/<key>/balance already answers',
      'function "bounds", parameter "n": min is greater than max',
      'function "bounds", parameter "s": maxLength is for string parameters',
      'function resource "customer": a table resource has that name (names match case-insensitively)',
      'function resource "Customers": a custom resource has that name (names match case-insensitively)',
      'function resource "noGet": get must be a function',
      'function resource "rows": rows.attributes: customer has no column "shoe_size"',
      'function resource "paged": the parameter "pagesize" is the API\'s own',
    ]);
  });
});
