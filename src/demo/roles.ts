import type { RolesDefinition } from '../security/role-definition.js';

/**
 * The demo's roles (README, "Roles"). A token's permissions are the union of its roles';
 * row filters use the filter grammar with the token's global values as `@{name}`.
 */
export const demoRoles: RolesDefinition = {
  globals: ['employee_id'],
  roles: [
    { name: 'Full access', defaultAccess: 'ALL', metaAccess: true },
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
        // A function resource: granted by name, access alone (it answers from the rep's own orders).
        owedByCustomer: { access: ['READ'] },
      },
    },
  ],
};
