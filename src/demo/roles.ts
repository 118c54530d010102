import type { RolesDefinition } from '../security/role-definition.js';

/**
 * The demo's roles (README, "Roles"). A token's permissions are the union of its roles';
 * row filters use the filter grammar with the token's global values as `@{name}`.
 */
export const demoRoles: RolesDefinition = {
  globals: ['employee_id'],
  roles: [
    {
      name: 'Full access',
      defaultAccess: 'ALL',
      metaAccess: true,
      // A stored procedure runs with the database user's rights: only a role that names it may call it.
      resources: { order_totals: { access: ['ALL'] } },
    },
    { name: 'Read only', defaultAccess: 'READ', metaAccess: true },
    {
      name: 'Sales rep',
      defaultAccess: 'NONE',
      metaAccess: false,
      resources: {
        customer: { access: ['READ'], readColumns: ['name', 'balance'] },
        product: { access: ['READ'] },
        employee: { access: ['READ'] },
        purchaseorder: { access: ['ALL'], rowFilter: 'salesrep_id = @{employee_id}' },
        lineitem: { access: ['ALL'], rowFilter: 'purchaseorder.salesrep_id = @{employee_id}' },
        payment: { access: ['READ'] },
        payment_allocation: { access: ['READ'], rowFilter: 'purchaseorder.salesrep_id = @{employee_id}' },
        customer_orders: { access: ['READ'] },
        // No customer_summary: the view counts and sums every rep's orders of a customer, and has no
        // column a row filter could keep him to his own by. Not granted, it is 403 to him.
        // A function resource: granted by name, access alone (it answers from the rep's own orders).
        owedByCustomer: { access: ['READ'] },
      },
    },
  ],
};
