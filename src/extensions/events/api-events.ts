import type { Principal } from '../../common/principal.js';
import { isThenable } from '../../common/settle-within.js';
import type { ExtensionRunner } from '../extension-runner.js';
import type {
  ApiEventsDefinition,
  EventCaller,
  EventMethod,
  EventRequest,
  JsonValue,
  RequestEventDefinition,
  ResponseEventDefinition,
} from './api-event-definition.js';
import { checkedEvents, type CheckedEvent, type ResourceNames } from './api-events-check.js';
import { answerKeepsMetadata, freezeMetadata, metadataOf, withoutFields } from './answer-metadata.js';

/** Where a request is, as the resources controller tells it (see `ApiEvents`). */
export interface EventSite {
  /** The resource as the API names it (a table's plain name, a custom resource level's path); undefined at the API root. */
  resource: string | undefined;
  table: string | undefined;
  /** The HTTP method; PATCH is taken as PUT. */
  method: string;
  version: string;
  key: string | undefined;
  query: Readonly<Record<string, unknown>>;
  principal: Principal;
  requestId: string | undefined;
}

const WRITES: ReadonlySet<EventMethod> = new Set(['POST', 'PUT']);

/**
 * The project's request and response events, checked at boot (`ApiEventsError` lists every problem), run by
 * `ExtensionRunner` for the resources controller, which asks only when the project declares some (`declared`): a
 * project without events pays one property read per request. Which events a request meets is worked out once per
 * resource, method and version and kept.
 */
export class ApiEvents {
  /** True when the project declares at least one event. */
  readonly declared: boolean;
  readonly requestEvents: readonly CheckedEvent<RequestEventDefinition>[];
  readonly responseEvents: readonly CheckedEvent<ResponseEventDefinition>[];
  private readonly chosen = new Map<string, Choice>();

  constructor(
    definition: ApiEventsDefinition | undefined,
    names: ResourceNames,
    private readonly runner: ExtensionRunner,
  ) {
    const { request, response } = checkedEvents(definition ?? {}, names);
    this.requestEvents = request;
    this.responseEvents = response;
    this.declared = request.length > 0 || response.length > 0;
  }

  /**
   * Whether any event has work at `site`: a request or response event meets it, or response events add fields its
   * writes leave out. When none has, the controller neither calls nor awaits the events.
   */
  meets(site: EventSite): boolean {
    const choice = this.choice(site);
    return choice.request.length > 0 || choice.response.length > 0 || choice.echoed.size > 0;
  }

  /**
   * Before a request is carried out: the fields response events add (`adds`) are left out of a write's objects,
   * then each request event meets the request and may refuse it or give the body to write. Answers the body.
   */
  async request(site: EventSite, body: unknown): Promise<unknown> {
    const choice = this.choice(site);
    if (choice.request.length === 0 && choice.echoed.size === 0) return body;
    const method = methodOf(site.method);
    let current = WRITES.has(method) && body !== undefined ? withoutFields(body, choice.echoed) : body;
    if (choice.request.length === 0) return current;
    const request = eventRequest(site, method);
    for (const event of choice.request) {
      current = await this.runner.run(
        { name: `request event ${event.name}`, timeoutMs: event.timeoutMs, requestId: site.requestId },
        (signal) => {
          const args = {
            ...request,
            get signal() {
              return signal();
            },
            body: current === undefined ? undefined : (structuredClone(current) as JsonValue),
          };
          const hadBody = args.body !== undefined;
          const given = () => (hadBody ? asJson(args.body, 'body') : undefined); // GET and DELETE have no body to give
          return afterRun(event.definition.run(args), given);
        },
      );
    }
    return current;
  }

  /** A successful answer, before it is sent: each response event meets it and may reshape it (never its `@metadata`). */
  async response<T>(site: EventSite, answer: T): Promise<T> {
    const events = this.choice(site).response;
    if (events.length === 0) return answer;
    const method = methodOf(site.method);
    const request = eventRequest(site, method);
    const original = metadataOf(answer);
    let current: unknown = answer;
    for (const event of events) {
      current = await this.runner.run(
        { name: `response event ${event.name}`, timeoutMs: event.timeoutMs, requestId: site.requestId },
        (signal) => {
          const args = {
            ...request,
            get signal() {
              return signal();
            },
            answer: freezeMetadata(structuredClone(current) as JsonValue),
          };
          return afterRun(event.definition.run(args), () => {
            const reshaped = asJson(args.answer, 'answer');
            if (Array.isArray(answer) !== Array.isArray(reshaped) || reshaped === null || typeof reshaped !== 'object') {
              throw new Error(
                `A response event must answer ${Array.isArray(answer) ? 'an array' : 'an object'}, as the request's answer is.`,
              );
            }
            if (!answerKeepsMetadata(reshaped, original)) {
              throw new Error('A response event may not change @metadata (hrefs, checksums, next_batch): it changed one.');
            }
            return reshaped;
          });
        },
      );
    }
    return current as T;
  }

  /**
   * For `@docs`: the fields response events add to a resource's GET answers in `version`, by the resource's
   * lower-case name (see `EventSite.resource`).
   */
  addedFieldsIn(version: string): (resource: string) => Array<{ field: string; event: string }> {
    const events = this.responseEvents.filter(
      (e) =>
        e.adds.length > 0 && (e.versions === undefined || e.versions.has(version)) && (e.methods === undefined || e.methods.has('GET')),
    );
    return (resource) =>
      events
        .filter((e) => e.resources === undefined || e.resources.has(resource))
        .flatMap((e) => e.adds.map((field) => ({ field, event: e.name })));
  }

  /** The events a request meets, and the fields left out of its writes, kept per resource, method and version. */
  private choice(site: EventSite): Choice {
    const method = methodOf(site.method);
    const resource = site.resource?.toLowerCase();
    const key = `${site.version}\u0000${method}\u0000${resource ?? ''}`;
    let choice = this.chosen.get(key);
    if (!choice) {
      const meets = (event: CheckedEvent<unknown>, byMethod: boolean): boolean =>
        (event.versions === undefined || event.versions.has(site.version)) &&
        (!byMethod || event.methods === undefined || event.methods.has(method)) &&
        (event.resources === undefined || (resource !== undefined && event.resources.has(resource)));
      choice = {
        request: this.requestEvents.filter((e) => meets(e, true)),
        response: this.responseEvents.filter((e) => meets(e, true)),
        // An added field comes back in a PUT of what any method of the resource answered.
        echoed: new Set(this.responseEvents.filter((e) => meets(e, false)).flatMap((e) => e.adds)),
      };
      this.chosen.set(key, choice);
    }
    return choice;
  }
}

interface Choice {
  request: readonly CheckedEvent<RequestEventDefinition>[];
  response: readonly CheckedEvent<ResponseEventDefinition>[];
  echoed: ReadonlySet<string>;
}

function methodOf(method: string): EventMethod {
  const upper = method.toUpperCase();
  return upper === 'PATCH' ? 'PUT' : (upper as EventMethod);
}

function eventRequest(site: EventSite, method: EventMethod): Omit<EventRequest, 'signal'> {
  const caller: EventCaller = Object.freeze({
    user: site.principal.userIdentifier,
    roles: Object.freeze([...site.principal.roleNames]),
    globals: Object.freeze({ ...site.principal.globals }),
  });
  return {
    caller,
    resource: site.resource,
    table: site.table,
    method,
    version: site.version,
    key: site.key,
    query: Object.freeze({ ...site.query }),
  };
}

/** What an event gave, as JSON (what a client could have sent): a value JSON cannot hold is the event's bug. */
function asJson(value: unknown, what: string): JsonValue {
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) throw new Error(`A request or response event gave a ${what} that is not JSON.`);
  return JSON.parse(text) as JsonValue;
}

/**
 * `then` once the event's `run` has finished: at once when it answered synchronously (no promise, no timer: see
 * `settleWithin`), after its promise when it returned one.
 */
function afterRun<T>(ran: void | PromiseLike<void>, then: () => T): T | Promise<T> {
  return isThenable(ran) ? Promise.resolve(ran).then(() => then()) : then();
}
