import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import type { Principal } from '../../common/principal.js';
import { ApiSettings } from '../../config/api-settings.js';
import { jsonColumns } from '../../data/json-row.js';
import { ConstraintRefusal } from '../../database/errors/constraint-violations.js';
import { ResourceRegistry } from '../../data/resource-registry.js';
import type { DocumentTransaction } from '../../documents/document-transaction.js';
import { DocumentsService } from '../../documents/documents.service.js';
import type { SummaryEntry } from '../../documents/summary/summary-terms.js';
import type { ResourceAccess } from '../../security/resource-access.js';
import { SecurityService } from '../../security/security.service.js';
import { ExtensionRunner } from '../extension-runner.js';
import { CallerData } from '../host/caller-data.js';
import type { Caller, FunctionHost, ParameterValues } from './function-definition.js';
import { parametersFrom, parameterValues } from './function-parameters.js';
import { FunctionRegistry, PAGE_PARAMETERS, RESERVED_PARAMETERS, type FunctionDemand, type FunctionResource } from './function-registry.js';

/** One request to a function or function resource, as RolesGuard admitted it. */
export interface FunctionRequest {
  demand: FunctionDemand;
  principal: Principal;
  /** The caller's access to a table function's table (RolesGuard's). */
  access?: ResourceAccess;
  /** A row function's key, as the URL sent it. */
  keySegment?: string;
  query: Readonly<Record<string, unknown>>;
  body: unknown;
  requestId?: string;
  /** The object of a custom resource level a function sub-resource is read for (`forContaining`). */
  containing?: Readonly<Record<string, unknown>>;
}

/** What the project's code answered (as JSON), and on a request that may write, the transaction's summary. */
export interface FunctionAnswer {
  result: unknown;
  entries?: SummaryEntry[];
}

/**
 * Runs functions and function resources: parameters checked and typed first (400 / 4000), then the project's
 * code through `ExtensionRunner` (its time limit, refusals, failures) with a host reading and writing as the
 * caller (`CallerData`). A GET reads outside any transaction and may not write; a POST, PUT or DELETE runs the
 * code inside ONE write transaction with the rules (`DocumentsService.inTransaction`), which commits when the
 * code returns and rolls back when it throws or runs out of time.
 */
@Injectable()
export class FunctionCalls {
  constructor(
    private readonly runner: ExtensionRunner,
    private readonly documents: DocumentsService,
    private readonly tables: ResourceRegistry,
    private readonly security: SecurityService,
    private readonly settings: ApiSettings,
    readonly registry: FunctionRegistry,
  ) {}

  /**
   * A function sub-resource of a custom resource level (`ResourceLevelDefinition.functions`), for one of its objects:
   * the function resource's GET as the caller, given the object (`containing`, its attributes as the caller sees them)
   * and the parameters taken from them. Null, without a call, when the object gives no value for a parameter it
   * requires, or one the parameter does not take (out of its range, not of its type).
   */
  async forContaining(
    resource: FunctionResource,
    principal: Principal,
    parameters: ReadonlyArray<{ parameter: string; attribute: string }>,
    containing: Readonly<Record<string, unknown>>,
    requestId?: string,
  ): Promise<unknown> {
    const query = parametersFrom(parameters, containing);
    try {
      parameterValues(resource.label, resource.definition.parameters, query, RESERVED_PARAMETERS);
    } catch {
      // A required parameter the object has no value for, or a value out of the parameter's range: nothing to ask.
      return null;
    }
    const demand = this.registry.readDemand(resource);
    const { result } = await this.call({ demand, principal, query, body: undefined, requestId, containing });
    return result;
  }

  async call(request: FunctionRequest): Promise<FunctionAnswer> {
    const { demand, principal } = request;
    const target = demand.target;
    const pages = target.kind === 'function resource' && demand.method === 'GET';
    const parameters = parameterValues(
      target.label,
      target.definition.parameters,
      request.query,
      pages ? PAGE_PARAMETERS : RESERVED_PARAMETERS,
    );
    const call = { name: target.label, timeoutMs: target.definition.timeoutMs, requestId: request.requestId };
    if (demand.method === 'GET') {
      const result = await this.runner.run(call, (signal) => this.invoke(request, parameters, signal()));
      return { result };
    }
    // The transaction's policy is the caller's, bound to the function's table (or any: it asks `to` for each resource).
    const access = request.access ?? this.security.access(principal, this.tables.resources[0]!);
    const { value, entries } = await this.runner.run(call, (signal) =>
      this.documents
        .inTransaction(access, (transaction) => untilAborted(signal(), this.invoke(request, parameters, signal(), transaction)))
        // The engine answers the database's refusal of a write (a duplicate key) as a refusal of its own: Tessera's, like the write.
        .catch((error: unknown) => {
          if (error instanceof ConstraintRefusal) return this.runner.passThrough(Promise.reject(error));
          throw error;
        }),
    );
    return { result: value, entries };
  }

  /** The project's code with its host; its answer as JSON (a value JSON cannot hold is the code's failure). */
  private async invoke(
    request: FunctionRequest,
    parameters: ParameterValues,
    signal: AbortSignal,
    transaction?: DocumentTransaction,
  ): Promise<unknown> {
    const { demand, principal } = request;
    const { documents, tables: registry, security, runner, settings } = this;
    const data = new CallerData({ documents, registry, security, runner, settings, principal, signal, transaction });
    const host: FunctionHost = {
      caller: callerOf(principal),
      parameters,
      data,
      method: demand.method,
      body: demand.method === 'POST' || demand.method === 'PUT' ? request.body : undefined,
      signal,
      ...(request.containing ? { containing: request.containing } : {}),
    };
    const target = demand.target;
    let result: unknown;
    if (target.kind === 'function resource') {
      result = await target.handlers.get(demand.method)!(host);
    } else if (target.definition.kind === 'resource') {
      result = await target.definition.run(host);
    } else {
      const found = await data.row(request.access!, request.keySegment!);
      if (!found) throw new ApiError(ErrorCode.OBJECT_NOT_FOUND, `No ${target.table.name} with that key.`);
      result = await target.definition.run({ ...host, row: jsonColumns(target.table, found.row, found.readable) });
    }
    return result === undefined ? null : (JSON.parse(JSON.stringify(result)) as unknown);
  }
}

function callerOf(principal: Principal): Caller {
  return { user: principal.userIdentifier, roles: principal.roleNames, globals: { ...principal.globals } };
}

/** The work, until the time limit aborts it: then it rejects at once, and the transaction it runs in rolls back. */
function untilAborted<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  const aborted = new Promise<never>((_resolve, reject) => {
    const stop = (): void => reject(new Error('The time limit ran out.'));
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
  return Promise.race([work, aborted]);
}
