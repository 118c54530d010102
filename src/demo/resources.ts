import type { CustomResourceDefinition, TableQueriesDefinition } from '../documents/levels/custom-resource-definition.js';

/**
 * Customers with their orders, as API version v1 shows them; v2's `Customers` is the same document with
 * `credit_limit` shown as `creditLimit` (README, "API versions"). The other resources are shared by both versions.
 */
const customersV1: CustomResourceDefinition = {
  name: 'Customers',
  versions: ['v1'],
  entity: 'customer',
  description: 'Customers with their orders, each with its line items and their products.',
  children: [
    {
      name: 'Orders',
      entity: 'purchaseorder',
      children: [
        {
          name: 'Lineitems',
          entity: 'lineitem',
          parents: [{ name: 'Product', entity: 'product', attributes: ['product_number', 'name', 'price'] }],
        },
      ],
    },
  ],
  userFilters: {
    balanceAtLeast: 'balance >= :min',
    named: 'name = :name',
  },
  userOrders: {
    richestFirst: 'balance desc',
  },
};

/**
 * The demo's custom resources (README, "Custom resources"): documents over the tables. Each
 * level is read with the grants of its own table, so a Sales rep reading `Customers` sees only
 * his orders.
 */
export const demoResources: CustomResourceDefinition[] = [
  customersV1,
  { ...customersV1, versions: ['v2'], attributes: ['name', 'balance', { name: 'creditLimit', column: 'credit_limit' }] },
  {
    name: 'OrderEntry',
    entity: 'purchaseorder',
    description: 'An order with its line items, to read and write as one document.',
    children: [{ name: 'Lineitems', entity: 'lineitem' }],
  },
  {
    // A function resource as a level (README, "Function resources"): per customer, what owedByCustomer answers for it.
    name: 'CustomerDebts',
    entity: 'customer',
    description: 'Customers with what their unpaid orders owe, as the function resource owedByCustomer computes it.',
    attributes: ['name', 'balance'],
    functions: [{ name: 'Owed', functionResource: 'owedByCustomer', parameters: { customer: 'name' } }],
  },
];

/**
 * Named filters and orders of the demo's tables: the LAC command-line client's README runs
 * `get demo:customer --userfilter "myFilter(custname:'Alpha and Sons')" --userorder "sortByName"`.
 */
export const demoTableQueries: Record<string, TableQueriesDefinition> = {
  customer: {
    userFilters: { myFilter: 'name = :custname' },
    userOrders: { sortByName: 'name' },
  },
};
