import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import { paramsFor } from '../../data/row-store.js';
import type { Database } from '../../database/database.js';
import { encodeRows } from '../sql-resources/result-values.js';
import { parameterValue, typedPlaceholder } from '../sql-resources/sql-parameters.js';
import { isStatementTimeout } from '../sql-resources/sql-resource-service.js';
import type { CompiledProcedure } from './procedure-registry.js';

/** The prefix of a procedure's arguments in a GET's query string, as LAC writes them: `?arg.customer_name=…`. */
export const ARGUMENT_PREFIX = 'arg.';

/**
 * Calls the project's procedures for a caller whose roles name them (RolesGuard has judged that): each argument
 * checked against the catalog's type and the definition's limits and bound in the routine's order (a missing one
 * is NULL), in a transaction of its own. The answer is every result set the routine returns, each a list of
 * objects whose values are encoded as a table's.
 */
export class ProcedureService {
  constructor(
    private readonly database: Database,
    private readonly statementTimeoutMs: number,
  ) {}

  /** The arguments of a GET (`arg.<name>`; any other query parameter but `auth` is refused) or of a POST's body (an object). */
  argumentsOf(procedure: CompiledProcedure, source: 'query' | 'body', given: unknown): Record<string, unknown> {
    if (source === 'body' && (given === null || typeof given !== 'object' || Array.isArray(given))) {
      throw new ApiError(ErrorCode.BAD_REQUEST, `The body of a call of ${procedure.name} is an object of its arguments.`);
    }
    const out: Record<string, unknown> = {};
    const unknown: string[] = [];
    for (const [key, value] of Object.entries((given ?? {}) as Record<string, unknown>)) {
      if (source === 'query' && key === 'auth') continue;
      const name = source === 'query' ? (key.startsWith(ARGUMENT_PREFIX) ? key.slice(ARGUMENT_PREFIX.length) : undefined) : key;
      if (name === undefined || !procedure.arguments.some((a) => a.name === name)) unknown.push(key);
      else out[name] = value;
    }
    if (unknown.length > 0) {
      const takes = procedure.arguments.map((a) => (source === 'query' ? `${ARGUMENT_PREFIX}${a.name}` : a.name));
      throw new ApiError(
        ErrorCode.BAD_REQUEST,
        `Unknown parameter ${unknown
          .slice(0, 5)
          .map((k) => `"${k.slice(0, 64)}"`)
          .join(', ')} for the procedure ${procedure.name}; it takes ${takes.length > 0 ? takes.join(', ') : 'none'}.`,
      );
    }
    return out;
  }

  async call(procedure: CompiledProcedure, args: Record<string, unknown>): Promise<Array<Array<Record<string, unknown>>>> {
    const dialect = this.database.dialect;
    const params = paramsFor(dialect);
    const list = procedure.arguments
      .map((a) => typedPlaceholder(dialect, params.add(parameterValue(a.name, a.definition, args[a.name])), a.definition.type))
      .join(', ');
    const call = `${procedure.quoted}(${list})`;
    const sql =
      procedure.kind === 'PROCEDURE'
        ? `CALL ${call}`
        : dialect === 'postgres'
          ? `SELECT * FROM ${call}`
          : `SELECT ${call} AS ${procedure.quoted}`;
    try {
      const sets = await this.database.callRoutine(sql, params.values);
      return sets.map((set) => encodeRows(set, dialect));
    } catch (error) {
      if (isStatementTimeout(error)) {
        throw new ApiError(
          ErrorCode.EXTENSION_TIMEOUT,
          `The procedure ${procedure.name} did not finish within ${this.statementTimeoutMs} ms.`,
        );
      }
      throw error;
    }
  }
}
