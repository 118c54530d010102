/**
 * Functions and function resources: the project's own TypeScript answering API requests
 * (LAC's "functions" and "JavaScript resources"), given a narrow host (`FunctionHost`): the
 * caller, the request's parameters, and `data`, which reads and writes the project's resources
 * AS THE CALLER through the documents layer (the same grants, row filters and column visibility as
 * the caller's own requests; writes run the rules and appear in the txsummary). Listed in
 * `ProjectDefinition.functions` and `.functionResources`, checked at boot (one message listing
 * every problem), run by `ExtensionRunner` (time limit 503 / 5033; `Refusal` → its envelope;
 * anything else 500 / 5002 without its message).
 *
 * ```ts
 * defineFunction({ name: 'giveRaise', entity: Employee, kind: 'row', writes: true,
 *   parameters: { percentRaise: { type: 'number', required: true, min: 0, max: 100 } },
 *   run: async ({ row, parameters, data }) => { ... } })
 * ```
 */
import type { DecimalString } from '../../data/decimal-string.js';
import type { Operation } from '../../security/role-definition.js';

/** A parameter's type as the URL gives it: `date` is `YYYY-MM-DD` (a string to the function). */
export type ParameterType = 'number' | 'integer' | 'string' | 'boolean' | 'date';

export interface ParameterDefinition {
  type: ParameterType;
  /** A request without it is 400 / 4000. Default false. */
  required?: boolean;
  /** `number` and `integer`: the least and greatest value taken. */
  min?: number;
  max?: number;
  /** `string`: the fewest and most characters (most: 1000 when absent). */
  minLength?: number;
  maxLength?: number;
  /** Shown in `@functions` and `@docs`. */
  description?: string;
}

export type ParameterValue = string | number | boolean;
/** The request's parameters, checked and typed as declared (a missing optional one is absent). */
export type ParameterValues = Readonly<Record<string, ParameterValue | undefined>>;

/** Who is calling: the token's user and roles, and the globals its roles' row filters use. */
export interface Caller {
  readonly user: string | null;
  readonly roles: readonly string[];
  readonly globals: Readonly<Record<string, string | number | boolean | null>>;
}

/** A row as the caller's GET shows it (its columns, JSON values: decimals are numbers), without `@metadata`. */
export type JsonRow = Record<string, unknown>;

type JsonValueOf<V> = V extends DecimalString ? number : V extends string | number | boolean | null ? V : unknown;
/** An entity's row as JSON (`JsonRow`) with its columns' types: a column the caller may not read is absent. */
export type JsonRowOf<T> = { readonly [K in keyof T]?: JsonValueOf<T[K]> };

/** A key: the value of a one-column key, or the values of a composite key in key-column order. */
export type KeyValue = string | number | ReadonlyArray<string | number>;

export interface ListOptions {
  /** Free-form filter (api-contract §5) on the resource's columns; values in it are bound, never spliced. */
  filter?: string;
  /** `col [asc|desc], ...` */
  order?: string;
  /** Default: the API's default page size; at most its maximum. */
  pagesize?: number;
  offset?: number;
  /**
   * Read with the system's rights: every row and column, whatever the caller's roles. Safe only when what
   * the function answers from it is the project's own decision to show (a count, a total, a yes or no),
   * never the rows themselves: the answer reaches a caller who could not read them. Writes never take it.
   */
  system?: boolean;
}

/**
 * The project's resources, read and written as the caller. Resources are named as in URLs (`customer`,
 * `main:customer`). A read or write the caller's roles do not permit is refused as the caller's own request
 * would be (403 / 4030, 404 / 4041 for a row it cannot see); the refusal reaches the client as it is.
 */
export interface DataAccess {
  /** Whether writes are allowed: POST and PUT of a function that `writes`; never on a GET. */
  readonly writable: boolean;
  list(resource: string, options?: ListOptions): Promise<JsonRow[]>;
  /** The row with this key as the caller may see it; undefined when there is none it may see. */
  get(resource: string, key: KeyValue, options?: { system?: boolean }): Promise<JsonRow | undefined>;
  /** Inserts a row through the rules; answers it as the caller may see it once written (undefined if it may not). */
  insert(resource: string, values: JsonRow): Promise<JsonRow | undefined>;
  /** Updates the row with this key through the rules (no checksum: the function read it in this transaction). */
  update(resource: string, key: KeyValue, changes: JsonRow): Promise<JsonRow | undefined>;
  delete(resource: string, key: KeyValue): Promise<void>;
}

/**
 * What project code is given. Every call of `data` refuses once the time limit has run out (and on a GET, every
 * write does): the work in progress then stops and its transaction rolls back.
 */
export interface FunctionHost {
  readonly caller: Caller;
  readonly parameters: ParameterValues;
  readonly data: DataAccess;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The request's JSON body (POST, PUT), as sent; undefined on GET and DELETE. */
  readonly body: unknown;
  /** Aborted when the time limit runs out: pass it to `fetch` and the like. */
  readonly signal: AbortSignal;
  /**
   * When a custom resource level reads it as a sub-resource (`functions` of the level): the object it is read for,
   * its attributes as the caller sees them (LAC's `containingRow`). Undefined on a request to the function resource.
   */
  readonly containing?: Readonly<Record<string, unknown>>;
}

/** A row function's host: the row the URL names, as the caller may see it. */
export interface RowFunctionHost<T> extends FunctionHost {
  readonly row: JsonRowOf<T>;
}

interface FunctionBase {
  /** The URL segment after the table (resource functions) or after the key (row functions): letters, digits, `_`. */
  name: string;
  parameters?: Record<string, ParameterDefinition>;
  /**
   * False (default): a read-only function, GET only. True: POST and PUT write (one transaction, through the
   * rules, answered with the txsummary); its GET still answers, with writes refused (`data.writable` is false).
   */
  writes?: boolean;
  /** The operation on the table a POST or PUT needs (GET needs READ): UPDATE when absent. */
  access?: Operation;
  /** Only callers with one of these roles may call it (besides the table's grant). Any role when absent. */
  roles?: string[];
  /** Milliseconds; EXTENSION_TIMEOUT_MS when absent. */
  timeoutMs?: number;
  description?: string;
}

/** `<base>/<table>/<key>/<name>`: run on one row the caller can see (404 / 4041 otherwise). */
export interface RowFunctionDefinition<T = unknown> extends FunctionBase {
  kind: 'row';
  /** The entity class of the table (like rules). */
  entity: new (...args: never[]) => T;
  run(host: RowFunctionHost<T>): unknown;
}

/** `<base>/<table>/<name>`: run on the table (a declared name shadows a row whose key is the same text). */
export interface ResourceFunctionDefinition<T = unknown> extends FunctionBase {
  kind: 'resource';
  entity: new (...args: never[]) => T;
  run(host: FunctionHost): unknown;
}

export type FunctionDefinition<T = unknown> = RowFunctionDefinition<T> | ResourceFunctionDefinition<T>;

/** Types a function against its entity (as `formula` does a rule): `run` sees the row's columns with their types. */
export function defineFunction<T>(definition: FunctionDefinition<T>): FunctionDefinition {
  return definition;
}

/** A function resource's answer to one method. An array answered to GET is paged like a table's list. */
export type FunctionResourceHandler = (host: FunctionHost) => unknown;

/**
 * `<base>/<name>`: a resource whose answers the project's code computes. Roles grant it by name, with
 * `access` alone (`READ` for GET, `INSERT` for POST, `UPDATE` for PUT, `DELETE` for DELETE); a role's
 * `defaultAccess` reaches it unless `explicitGrantOnly`.
 */
export interface FunctionResourceDefinition {
  /** Its URL segment; no table's or custom resource's name. */
  name: string;
  description?: string;
  /** Query parameters its methods take (besides `pagesize` and `offset` on GET). */
  parameters?: Record<string, ParameterDefinition>;
  /**
   * What GET answers: an array is paged (`pagesize`, `offset`, a `next_batch` link last when more follow);
   * anything else is answered as it is.
   */
  get: FunctionResourceHandler;
  /** POST, PUT, DELETE: run in one transaction that may write; answered `{statusCode, result, txsummary}`. */
  post?: FunctionResourceHandler;
  put?: FunctionResourceHandler;
  delete?: FunctionResourceHandler;
  /**
   * The rows GET answers, for `@docs` and `@resources`: the table they come from and the attributes they hold
   * (all its columns when absent).
   */
  rows?: { entity: new (...args: never[]) => unknown; attributes?: string[] };
  /** Only roles that name it grant it. Default false. */
  explicitGrantOnly?: boolean;
  timeoutMs?: number;
}
