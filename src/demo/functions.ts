import { Decimal } from 'decimal.js';
import { defineFunction, type FunctionDefinition, type FunctionResourceDefinition } from '../extensions/functions/function-definition.js';
import { Refusal } from '../extensions/refusal.js';
import { Employee } from './entities/employee.entity.js';

/**
 * The demo's functions (README, "Functions"). `giveRaise`, LAC's example: `GET employee/1/giveRaise?percentRaise=10`
 * answers the raised salary without writing; a POST of the same URL writes it, through the rules, and answers
 * with the txsummary. A POST needs UPDATE on employee (the read-only role gets 403).
 */
export const demoFunctions: FunctionDefinition[] = [
  defineFunction<Employee>({
    name: 'giveRaise',
    kind: 'row',
    entity: Employee,
    writes: true,
    description: "Raises the employee's salary by percentRaise percent: GET answers the new salary, POST (or PUT) writes it.",
    parameters: { percentRaise: { type: 'number', required: true, min: 0, max: 100, description: 'The raise, in percent.' } },
    run: async ({ row, parameters, data }) => {
      if (row.salary === undefined || row.salary === null) throw new Refusal(422, `Employee ${row.employee_id} has no salary to raise.`);
      const percentRaise = parameters.percentRaise as number;
      const newSalary = new Decimal(row.salary).times(new Decimal(100).plus(percentRaise)).dividedBy(100).toDecimalPlaces(2).toNumber();
      if (data.writable) await data.update('employee', row.employee_id!, { salary: newSalary });
      return { employee_id: row.employee_id, name: row.name, salary: row.salary, percentRaise, newSalary };
    },
  }),
];

/** What a page of `owedByCustomer` reads at a time, and the most orders it reads in all. */
const PAGE = 100;
const MOST_ORDERS = 10_000;

/**
 * The demo's function resource (README, "Function resources"): `GET owedByCustomer` answers, per customer, how
 * many unpaid orders the caller can see and what they owe, computed over the caller's own rows: a sales rep
 * (sam) sees the sums of his orders only. Granted by roles by name (`owedByCustomer: { access: ['READ'] }`).
 */
export const demoFunctionResources: FunctionResourceDefinition[] = [
  {
    name: 'owedByCustomer',
    description: 'Per customer, the unpaid orders the caller can see and the amount they owe, largest first.',
    parameters: {
      minOwed: { type: 'number', min: 0, description: 'Only customers owing at least this much.' },
      customer: { type: 'string', maxLength: 30, description: 'Only this customer (its name).' },
    },
    get: async ({ data, parameters }) => {
      const owed = new Map<string, { customer_name: string; orders: number; amount_owed: Decimal }>();
      // The customer's name as a filter literal: a doubled quote is one quote, `\\` one backslash (README, "filter").
      const only = parameters.customer as string | undefined;
      const filter =
        only === undefined ? 'paid = false' : `paid = false and customer_name = '${only.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
      for (let offset = 0; offset < MOST_ORDERS; offset += PAGE) {
        const orders = await data.list('purchaseorder', { filter, pagesize: PAGE, offset });
        for (const order of orders) {
          const name = String(order.customer_name);
          const entry = owed.get(name) ?? { customer_name: name, orders: 0, amount_owed: new Decimal(0) };
          entry.orders += 1;
          entry.amount_owed = entry.amount_owed.plus(Number(order.amount_owed ?? 0));
          owed.set(name, entry);
        }
        if (orders.length < PAGE) break;
      }
      const least = new Decimal((parameters.minOwed as number | undefined) ?? 0);
      return [...owed.values()]
        .filter((e) => e.amount_owed.gte(least))
        .sort((a, b) => b.amount_owed.comparedTo(a.amount_owed) || a.customer_name.localeCompare(b.customer_name))
        .map((e) => ({ customer_name: e.customer_name, orders: e.orders, amount_owed: e.amount_owed.toNumber() }));
    },
  },
];
