import type { ProjectDefinition } from '../project-definition.js';
import { Customer } from './entities/customer.entity.js';
import { CustomerSummary } from './entities/customer-summary.view.js';
import { Employee } from './entities/employee.entity.js';
import { Lineitem } from './entities/lineitem.entity.js';
import { PaymentAllocation } from './entities/payment-allocation.entity.js';
import { Payment } from './entities/payment.entity.js';
import { Product } from './entities/product.entity.js';
import { PurchaseorderAudit } from './entities/purchaseorder-audit.entity.js';
import { Purchaseorder } from './entities/purchaseorder.entity.js';
import { CreateDemoTables1763900000000 } from './migrations/1763900000000-create-demo-tables.js';
import { PortableDemoSchema1763900001000 } from './migrations/1763900001000-portable-demo-schema.js';
import { IndexCustomerBalance1763900002000 } from './migrations/1763900002000-index-customer-balance.js';
import { Payments1763900003000 } from './migrations/1763900003000-payments.js';
import { OrderTotalsProcedure1763900004000 } from './migrations/1763900004000-order-totals-procedure.js';
import { CustomerSummaryView1763900005000 } from './migrations/1763900005000-customer-summary-view.js';
import { demoProcedures, demoSqlResources } from './sql.js';
import { EmployeeSalary1763900006000 } from './migrations/1763900006000-employee-salary.js';
import { demoFunctionResources, demoFunctions } from './functions.js';
import { demoResources, demoTableQueries } from './resources.js';
import { demoRoles } from './roles.js';
import { demoEvents } from './events.js';
import { demoRules } from './rules.js';
import { seedDemo } from './seed/demo-seed.js';

/**
 * The demo API project: what `/rest/default/demo/v1` serves.
 * Teams edit this folder (entities, migrations, roles, rules, custom resources, functions); the engine never imports it.
 */
export const demoProject: ProjectDefinition = {
  account: 'default',
  name: 'demo',
  // v2 renames an attribute of `Customers` and shows customers' balance_status (resources.ts, events.ts); v1 keeps its shape.
  versions: ['v1', 'v2'],
  options: {
    permitAuthInUrl: false,
    allowFreeFormFilters: true,
  },
  entities: [Customer, Product, Employee, Purchaseorder, Lineitem, PurchaseorderAudit, Payment, PaymentAllocation, CustomerSummary],
  migrations: [
    CreateDemoTables1763900000000,
    PortableDemoSchema1763900001000,
    IndexCustomerBalance1763900002000,
    Payments1763900003000,
    OrderTotalsProcedure1763900004000,
    CustomerSummaryView1763900005000,
    EmployeeSalary1763900006000,
  ],
  seed: seedDemo,
  roles: demoRoles,
  rules: demoRules,
  resources: demoResources,
  tableQueries: demoTableQueries,
  events: demoEvents,
  sqlResources: demoSqlResources,
  procedures: demoProcedures,
  functions: demoFunctions,
  functionResources: demoFunctionResources,
  seedUsers: [
    { login: 'demo', password: 'Password1', roles: ['Full access'], email: 'demo@example.com' },
    { login: 'readonly', password: 'Password1', roles: ['Read only'] },
    { login: 'sam', password: 'Password1', roles: ['Sales rep'], globals: { employee_id: 1 } },
  ],
};
