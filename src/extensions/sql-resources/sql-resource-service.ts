import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import type { Principal } from '../../common/principal.js';
import type { ResourceRegistry } from '../../data/resource-registry.js';
import type { Database } from '../../database/database.js';
import { callerTableSql, unreadableOf } from '../../security/caller-tables.js';
import { ResourceAccess } from '../../security/resource-access.js';
import { USER_IDENTIFIER_GLOBAL } from '../../security/role-definition.js';
import type { SecurityService } from '../../security/security.service.js';
import { encodeRows } from './result-values.js';
import { parameterValue, type ParameterValue } from './sql-parameters.js';
import { buildStatement, type CompiledSqlResource } from './sql-statement.js';

/** One page of a SQL resource's rows; `hasMore` when another page follows. */
export interface SqlResourcePage {
  rows: Array<Record<string, unknown>>;
  hasMore: boolean;
}

/** A statement the database stopped at its time limit: PostgreSQL's query_canceled, MariaDB's and MySQL's own. */
export function isStatementTimeout(error: unknown): boolean {
  const inner = ((error as { driverError?: unknown }).driverError ?? error) as { code?: unknown; errno?: unknown } | null;
  return inner?.code === '57014' || inner?.errno === 1969 || inner?.errno === 3024;
}

/**
 * Runs SQL resources for a caller whose roles grant them (RolesGuard has judged that): the request's
 * parameters checked and bound, each placeholder the caller's own table (`callerTableSql`), refused (403 /
 * 4030) when the SQL needs a column the caller may not read, one page read in a read-only transaction.
 */
export class SqlResourceService {
  constructor(
    private readonly tables: ResourceRegistry,
    private readonly database: Database,
    private readonly security: SecurityService,
    private readonly statementTimeoutMs: number,
  ) {}

  async page(
    resource: CompiledSqlResource,
    principal: Principal,
    query: Readonly<Record<string, unknown>>,
    page: { pageSize: number; offset: number },
  ): Promise<SqlResourcePage> {
    const unknown = Object.keys(query).filter((name) => !Object.hasOwn(resource.parameters, name));
    if (unknown.length > 0) {
      const names = unknown.slice(0, 5).map((n) => `"${n.slice(0, 64)}"`);
      const takes = Object.keys(resource.parameters);
      throw new ApiError(
        ErrorCode.BAD_REQUEST,
        `Unknown parameter ${names.join(', ')} for the SQL resource ${resource.name}; it takes ${takes.length > 0 ? takes.join(', ') + ', ' : ''}pagesize and offset.`,
      );
    }
    const values = new Map<string, ParameterValue>();
    for (const [name, parameter] of Object.entries(resource.parameters)) values.set(name, parameterValue(name, parameter, query[name]));
    const accessOf = (table: Parameters<SecurityService['access']>[1]): ResourceAccess =>
      resource.system ? ResourceAccess.system(table) : this.security.access(principal, table);
    for (const [table, used] of resource.used) {
      const hidden = unreadableOf(accessOf(table), used);
      if (hidden.length > 0) {
        throw new ApiError(
          ErrorCode.FORBIDDEN,
          `Your roles do not let you read ${hidden.map((c) => `${table.name}.${c}`).join(', ')}, which the SQL resource ${resource.name} uses.`,
        );
      }
    }
    const globals: Record<string, ParameterValue> = { ...principal.globals, [USER_IDENTIFIER_GLOBAL]: principal.userIdentifier };
    const statement = buildStatement(
      resource,
      this.database.dialect,
      {
        table: (table, _alias, params) => callerTableSql(accessOf(table), this.tables, this.database.dialect, params),
        parameter: (name) => values.get(name) ?? null,
        global: (name) => (Object.hasOwn(globals, name) ? (globals[name] ?? null) : null),
      },
      { limit: page.pageSize + 1, offset: page.offset },
    );
    let set;
    try {
      set = await this.database.readOnlyQuery(statement.sql, statement.values);
    } catch (error) {
      if (isStatementTimeout(error)) {
        throw new ApiError(
          ErrorCode.EXTENSION_TIMEOUT,
          `The SQL resource ${resource.name} did not finish within ${this.statementTimeoutMs} ms.`,
        );
      }
      throw error;
    }
    const rows = encodeRows(set, this.database.dialect);
    const hasMore = rows.length > page.pageSize;
    return { rows: hasMore ? rows.slice(0, page.pageSize) : rows, hasMore };
  }
}
