/**
 * Roles are part of the API project (`src/project/roles.ts`): typed data, checked at boot
 * against the resources. A token carries role names; its permissions are the union of its
 * roles' permissions (api-contract §7).
 *
 * ```ts
 * { name: 'Sales rep', defaultAccess: 'NONE', metaAccess: false, resources: {
 *     customer: { access: ['READ'], readColumns: ['name', 'balance'] },
 *     purchaseorder: { access: ['ALL'], rowFilter: 'salesrep_id = @{employee_id}' },
 *     lineitem: { access: ['ALL'], rowFilter: 'purchaseorder.salesrep_id = @{employee_id}' } } }
 * ```
 */

/** `ALL` is READ, INSERT, UPDATE and DELETE. */
export type AccessLevel = 'READ' | 'INSERT' | 'UPDATE' | 'DELETE' | 'ALL';
export type Operation = Exclude<AccessLevel, 'ALL'>;

export interface ResourcePermission {
  access: AccessLevel[];
  /**
   * Rows this role may touch, in the filter grammar (api-contract §5). `@{name}` is the
   * token's global `name`, `@{_apikey.user_identifier}` its user identifier; `parent.column`
   * names a column of the parent row (`purchaseorder.salesrep_id`). A global the token lacks
   * admits no rows.
   */
  rowFilter?: string;
  /** Columns this role may read; all when absent. */
  readColumns?: string[];
  /** Columns this role may write (INSERT, UPDATE); all when absent. */
  writeColumns?: string[];
}

export interface RoleDefinition {
  name: string;
  /** Access to resources the role does not name. */
  defaultAccess: 'ALL' | 'READ' | 'NONE';
  /** May use `@resources`, `@tables`, `@docs`. Default false. */
  metaAccess?: boolean;
  /** Keyed by resource name (plain or prefixed, any case). */
  resources?: Record<string, ResourcePermission>;
}

/** The project's roles and the global value names their row filters may use. */
export interface RolesDefinition {
  /** Names usable as `@{name}` in row filters (besides `_apikey.user_identifier`). */
  globals: string[];
  roles: RoleDefinition[];
}

export const OPERATIONS: readonly Operation[] = ['READ', 'INSERT', 'UPDATE', 'DELETE'];

/** The identifier global every token has. */
export const USER_IDENTIFIER_GLOBAL = '_apikey.user_identifier';
