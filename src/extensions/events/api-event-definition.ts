import type { GlobalValue } from '../../common/global-values.js';

/**
 * Request and response events (LAC's "request events" and "response events"): the project's code run on every
 * request of its API's resources, typed data in the project (`ProjectDefinition.events`, the demo's in
 * `src/demo/events.ts`), checked at boot. A request event may refuse a request (`throw new Refusal(422, '…')`) or
 * adjust a write's body; a response event may reshape the answer. Each runs through `ExtensionRunner` (its time
 * limit: 503 / 5033; a bug: 500 / 5002 without its message).
 *
 * ```ts
 * events: {
 *   request: [{ name: 'limitQuantity', resources: ['lineitem'], methods: ['POST', 'PUT'], run: (request) => { … } }],
 *   response: [{ name: 'balanceStatus', resources: ['customer'], methods: ['GET'], adds: ['balance_status'], run: (response) => { … } }],
 * }
 * ```
 */
export interface ApiEventsDefinition {
  /** Run in this order, after the caller's token and roles are judged, before the request is carried out. */
  request?: RequestEventDefinition[];
  /** Run in this order on a successful answer, before it is sent. */
  response?: ResponseEventDefinition[];
}

/** A request's method as events see it: PATCH is PUT (LAC answers PATCH as PUT). */
export type EventMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A JSON value: what bodies and answers are made of. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** What a request or response event is run on (its filters); every request of the API's resources when they are absent. */
export interface ApiEventFilter {
  /** A name for messages and logs (`request event limitQuantity`): letters, digits, _ and -; unique among the project's events of its kind. */
  name: string;
  /**
   * The resources it runs on: table names (plain or `<prefix>:<table>`) and custom resource names or levels
   * (`Customers`, `Customers.Orders`), any case; each must exist in every version the event runs in. Every
   * resource when absent; writes at the API root (objects naming their own resources) meet only events without it.
   */
  resources?: string[];
  /** The methods it runs on; every method when absent. */
  methods?: EventMethod[];
  /** The API versions it runs in (`ProjectDefinition.versions`); every version when absent. */
  versions?: string[];
  /** Milliseconds it may run; EXTENSION_TIMEOUT_MS when absent. Past it the client gets 503 / 5033. */
  timeoutMs?: number;
}

/** Who is calling: what the caller's token says (never the token). Frozen. */
export interface EventCaller {
  /** The login name of a login token, the identifier of a hand-made token, or null. */
  user: string | null;
  roles: readonly string[];
  globals: Readonly<Record<string, GlobalValue>>;
}

/** What every event sees of the request. */
export interface EventRequest {
  caller: EventCaller;
  /**
   * The resource as the API names it (`lineitem`, `Customers.Orders`); undefined for a write at the API root.
   * A table's plain name whichever name the URL used (`demo:lineitem` is `lineitem`).
   */
  resource: string | undefined;
  /** The table underneath (a custom resource level's table); undefined at the API root. */
  table: string | undefined;
  method: EventMethod;
  version: string;
  /** The key segment of the URL (`<resource>/<key>`) as sent, when there is one. */
  key: string | undefined;
  /** The query parameters, as parsed. Frozen. */
  query: Readonly<Record<string, unknown>>;
  /** Aborted when the event's time is up: pass it to `fetch` and the like. */
  signal: AbortSignal;
}

export interface RequestEventArgs extends EventRequest {
  /**
   * A copy of a POST's or PUT's JSON body (`@metadata` included), which the event may change in place or replace
   * (`request.body = …`): what it holds when the event ends is written. Undefined for GET and DELETE.
   */
  body: JsonValue | undefined;
}

/**
 * A request event: runs after the caller's token and roles are judged (a caller a role refuses never reaches it)
 * and before the request is carried out. Throw `new Refusal(status, message)` to refuse the request (the client's
 * error envelope); change `body` (or replace it) to write another: that body then meets every check a client's
 * does (the caller's grants and columns, the resource's attributes, the rules).
 */
export interface RequestEventDefinition extends ApiEventFilter {
  run(request: RequestEventArgs): void | Promise<void>;
}

export interface ResponseEventArgs extends EventRequest {
  /**
   * A copy of the answer, which the event may change in place or replace (`response.answer = …`): a GET's objects (an array; its last element
   * `{"@metadata": {"next_batch": …}}` when more follow), or a write's `{statusCode, txsummary, rulesummary}`.
   * Every `@metadata` in it is read-only (frozen): an answer whose `@metadata` differs from the original's is the
   * event's failure (500 / 5002), so hrefs and checksums stay true.
   */
  answer: JsonValue;
}

/**
 * A response event: runs on a successful answer (JSON, CSV or XML: CSV keeps the resource's columns) before it is
 * sent, after a write has committed (its failure answers an error, but the write stands). What `answer` holds when
 * it ends is sent.
 */
export interface ResponseEventDefinition extends ApiEventFilter {
  /**
   * The fields it adds to the resources' objects (`balance_status`): a client that PUTs back an object it read
   * (LAC's GET, change, PUT) sends them, and they are left out of writes of the event's resources, at any depth.
   * None may be an attribute of any resource (checked at boot): other fields a client sends are still refused.
   */
  adds?: string[];
  run(response: ResponseEventArgs): void | Promise<void>;
}
