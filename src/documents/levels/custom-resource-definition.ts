/**
 * Custom (nested) resources, LAC's "custom resources": typed data in the project
 * (`ProjectDefinition.resources`, the demo's in `src/demo/resources.ts`), checked at boot like roles
 * and rules (`CustomResourceRegistry`). A custom resource is a document: rows of its base table
 * with, per row, sub-resources to any depth — children (one-to-many) as JSON arrays and parents
 * (many-to-one) as a JSON object or null.
 *
 * ```ts
 * { name: 'Customers', entity: 'customer', attributes: ['name', { name: 'Balance', column: 'balance' }],
 *   children: [{ name: 'Orders', entity: 'purchaseorder', order: 'order_number desc',
 *     children: [{ name: 'Lineitems', entity: 'lineitem', parents: [{ name: 'Product', entity: 'product' }] }] }],
 *   userFilters: { rich: 'Balance >= :min' }, userOrders: { byBalance: 'Balance desc' } }
 * ```
 *
 * URLs: `<base>/Customers[/<pk>]`; every level is addressable as a resource rooted there:
 * `<base>/Customers.Orders[/<pk>]`, `<base>/Customers.Orders.Lineitems.Product[/<pk>]`.
 * Names match case-insensitively, like table names.
 */

/** What every level (the root and each sub-resource) says about the rows it shows. */
export interface ResourceLevelDefinition {
  /**
   * Attributes shown, in this order: a column name (shown under its own name), or
   * `{ name: alias, column }`. All columns, in table order, when absent. A caller sees only those
   * its roles may read.
   */
  attributes?: Array<string | { name: string; column: string }>;
  /**
   * The attribute (or, for a composite key, attributes) by which a write finds this level's
   * objects when they give no `@metadata.key` (nor an href): UPDATE, DELETE, LOOKUP and
   * MERGE_INSERT. The level's attribute names (aliases); they must be the table's primary key
   * or one of its unique keys. The primary key when absent.
   */
  key?: string | string[];
  /** Fixed filter (filter grammar, column names, not aliases), ANDed with request filters and role filters. */
  filter?: string;
  /** Fixed order `col [asc|desc], ...` (column names); request order terms come first; always completed by the primary key. */
  order?: string;
  /** One-to-many sub-resources: a JSON array per row. */
  children?: ChildResourceDefinition[];
  /** Many-to-one sub-resources: a JSON object (or null) per row. */
  parents?: ParentResourceDefinition[];
  /**
   * Sub-resources a function resource answers (LAC's JavaScript resource inside a custom resource): per object of
   * this level, the function resource's GET, given the object (`containing`) and parameters taken from its
   * attributes. Read-only: a write of the document leaves them out.
   *
   * ```ts
   * functions: [{ name: 'Owed', functionResource: 'owedByCustomer', parameters: { customer: 'name' } }]
   * ```
   */
  functions?: FunctionLevelDefinition[];
}

/** A sub-resource whose value a function resource's GET answers, per object of the level it is in. */
export interface FunctionLevelDefinition {
  /** JSON property, e.g. 'Owed': no '.'; not an attribute's or another sub-resource's name. */
  name: string;
  /** The function resource (`ProjectDefinition.functionResources`) whose GET answers it. */
  functionResource: string;
  /**
   * Its parameters from the object's attributes: `{ customer: 'name' }` passes the object's `name` as the parameter
   * `customer` (checked as a request's would be). Each must be a parameter the function resource declares, and an
   * attribute of the level; an attribute the caller may not read is not passed.
   */
  parameters?: Record<string, string>;
}

export interface CustomResourceDefinition extends ResourceLevelDefinition {
  /** URL name, e.g. 'Customers'. Unique among all resources (tables included), case-insensitively. No '.'. */
  name: string;
  /** The table resource it is based on (plain table name, e.g. 'customer'). */
  entity: string;
  /**
   * Named filters for `userfilter=<name>(param:value, ...)`: filter grammar (api-contract §5) over
   * the root level's attribute names (aliases), with `:param` placeholders; the request's values
   * are bound as parameters, never spliced. Like a request filter, only attributes the caller may
   * read can be used (400 / 4003 otherwise).
   */
  userFilters?: Record<string, string>;
  /** Named orders for `userorder=<name>`: `attribute [asc|desc], ...` over the root level's attribute names. */
  userOrders?: Record<string, string>;
  description?: string;
  /**
   * The API versions (`ProjectDefinition.versions`) that serve this resource; every version when absent. A name may
   * be defined again for other versions: `v1` keeps an old shape while `v2` has a new one, and each version's
   * `@docs` and `@resources` show its own.
   *
   * ```ts
   * { name: 'Customers', versions: ['v1'], entity: 'customer', attributes: ['name', 'credit_limit'] },
   * { name: 'Customers', versions: ['v2'], entity: 'customer', attributes: ['name', { name: 'creditLimit', column: 'credit_limit' }] },
   * ```
   */
  versions?: string[];
}

/**
 * Named filters and orders of one table resource (`ProjectDefinition.tableQueries`, keyed by the
 * table's name): LAC lets a table's GET take `userfilter`/`userorder` as a custom resource's does
 * (`get demo:customer --userfilter "myFilter(custname:'Alpha and Sons')" --userorder "sortByName"`).
 * The same forms as `CustomResourceDefinition.userFilters`/`userOrders`, over the table's column
 * names; checked at boot with the custom resources.
 *
 * ```ts
 * tableQueries: { customer: { userFilters: { myFilter: 'name = :custname' }, userOrders: { sortByName: 'name' } } }
 * ```
 */
export interface TableQueriesDefinition {
  userFilters?: Record<string, string>;
  userOrders?: Record<string, string>;
}

export interface ChildResourceDefinition extends ResourceLevelDefinition {
  /** JSON property and path segment, e.g. 'Orders'. No '.'. */
  name: string;
  /** The child table, e.g. 'purchaseorder'. */
  entity: string;
  /**
   * The child's many-to-one relation (its `ParentRelation.name` in the registry, e.g. 'customer')
   * that points at the owning level; optional when exactly one relation links the two.
   */
  via?: string;
}

export interface ParentResourceDefinition extends ResourceLevelDefinition {
  /** JSON property and path segment, e.g. 'Product'. No '.'. */
  name: string;
  /** The parent table, e.g. 'product'. */
  entity: string;
  /** The owning level's many-to-one relation followed (`ParentRelation.name`, e.g. 'product'); optional when exactly one. */
  via?: string;
}
