import type {
  ApiEventFilter,
  ApiEventsDefinition,
  EventMethod,
  RequestEventDefinition,
  ResponseEventDefinition,
} from './api-event-definition.js';

/** What the events' filters are checked against: the API's versions and the resources each serves. */
export interface ResourceNames {
  /** The API versions the project declares. */
  versions: readonly string[];
  /** The name (lower-case) a resource is known by in `version` (a table's plain name, a level's path); undefined when none. */
  resolve(name: string, version: string): string | undefined;
  /** Whether any resource (table or custom resource level, of any version) has an attribute of this name. */
  hasAttribute(name: string): boolean;
}

/** One event as checked at boot: its filters as sets (undefined: no filter). */
export interface CheckedEvent<D> {
  name: string;
  definition: D;
  /** The resources' lower-case names (see `ResourceNames.resolve`). */
  resources?: ReadonlySet<string>;
  methods?: ReadonlySet<EventMethod>;
  versions?: ReadonlySet<string>;
  timeoutMs?: number;
  /** A response event's added fields; [] otherwise. */
  adds: readonly string[];
}

/** The project's events are invalid: every problem, one a line. */
export class ApiEventsError extends Error {
  constructor(readonly problems: string[]) {
    super(`The request and response events in the project are invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ApiEventsError';
  }
}

const NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const FIELD = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const METHODS: readonly EventMethod[] = ['GET', 'POST', 'PUT', 'DELETE'];
/** The longest time limit an event may ask: ten minutes. */
const MAX_TIMEOUT_MS = 600_000;

/** Checks the project's events (every problem in one `ApiEventsError`) and answers them with their filters as sets. */
export function checkedEvents(
  definition: ApiEventsDefinition,
  names: ResourceNames,
): { request: CheckedEvent<RequestEventDefinition>[]; response: CheckedEvent<ResponseEventDefinition>[] } {
  const problems: string[] = [];
  if ((definition as unknown) === null || typeof definition !== 'object') {
    throw new ApiEventsError(['events: give { request?: [...], response?: [...] }']);
  }
  const unknown = Object.keys(definition).filter((key) => key !== 'request' && key !== 'response');
  if (unknown.length > 0) problems.push(`events: unknown field(s) ${unknown.join(', ')} (events take request and response)`);
  const request = checkKind('request', definition.request, names, problems);
  const response = checkKind('response', definition.response, names, problems) as CheckedEvent<ResponseEventDefinition>[];
  if (problems.length > 0) throw new ApiEventsError(problems);
  return { request: request as CheckedEvent<RequestEventDefinition>[], response };
}

function checkKind(
  kind: 'request' | 'response',
  list: unknown,
  names: ResourceNames,
  problems: string[],
): Array<CheckedEvent<RequestEventDefinition | ResponseEventDefinition>> {
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    problems.push(`events.${kind}: a list of ${kind} events`);
    return [];
  }
  const seen = new Set<string>();
  const out: Array<CheckedEvent<RequestEventDefinition | ResponseEventDefinition>> = [];
  for (const [index, event] of (list as Array<Partial<ResponseEventDefinition> | null>).entries()) {
    const name = event?.name;
    const where = typeof name === 'string' ? `${kind} event "${name}"` : `${kind} event #${index + 1}`;
    if (event === null || typeof event !== 'object') {
      problems.push(`${where}: give { name, run, ... }`);
      continue;
    }
    if (typeof name !== 'string' || !NAME.test(name))
      problems.push(`${where}: a name is letters, digits, _ and -, starting with a letter or _`);
    else if (seen.has(name.toLowerCase())) problems.push(`${where} is defined twice`);
    else seen.add(name.toLowerCase());
    if (typeof event.run !== 'function') problems.push(`${where}: run must be a function`);
    const versions = checkVersions(event, names, where, problems);
    const methods = checkList(event.methods, 'methods', where, problems, (m) => METHODS.includes(m as EventMethod), METHODS.join(', '));
    const timeoutMs = event.timeoutMs;
    if (timeoutMs !== undefined && (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS)) {
      problems.push(`${where}: timeoutMs is a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`);
    }
    const resources = checkResources(event, versions?.length ? versions : names.versions, names, where, problems);
    const adds = kind === 'response' ? checkAdds(event.adds, names, where, problems) : [];
    if (kind === 'request' && 'adds' in event) problems.push(`${where}: adds is for response events (the fields they add)`);
    out.push({
      name: String(name),
      definition: event as RequestEventDefinition | ResponseEventDefinition,
      resources,
      methods: methods && new Set(methods as EventMethod[]),
      versions: versions && new Set(versions),
      timeoutMs,
      adds,
    });
  }
  return out;
}

/** A list of strings each `valid` accepts (undefined when absent); a problem for anything else. */
function checkList(
  value: unknown,
  field: string,
  where: string,
  problems: string[],
  valid: (item: string) => boolean,
  expected: string,
): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || value.some((v) => typeof v !== 'string')) {
    problems.push(`${where}: ${field} is a non-empty list (of ${expected})`);
    return undefined;
  }
  const bad = (value as string[]).filter((v) => !valid(v));
  if (bad.length > 0) problems.push(`${where}: unknown ${field} ${bad.join(', ')} (${expected})`);
  return value as string[];
}

function checkVersions(event: Partial<ApiEventFilter>, names: ResourceNames, where: string, problems: string[]): string[] | undefined {
  const declared = names.versions;
  const versions = checkList(
    event.versions,
    'versions',
    where,
    problems,
    (v) => declared.includes(v),
    `the project's API versions: ${declared.join(', ')}`,
  );
  return versions?.filter((v) => declared.includes(v));
}

/** Each resource name must be one in every version the event runs in; answers the names as `ResourceNames.resolve` gives them. */
function checkResources(
  event: Partial<ApiEventFilter>,
  versions: readonly string[],
  names: ResourceNames,
  where: string,
  problems: string[],
): ReadonlySet<string> | undefined {
  const resources = checkList(event.resources, 'resources', where, problems, () => true, 'resource names');
  if (!resources) return undefined;
  const out = new Set<string>();
  for (const resource of resources) {
    const found = versions.map((version) => ({ version, name: names.resolve(resource, version) }));
    const missing = found.filter((f) => f.name === undefined).map((f) => f.version);
    if (missing.length === found.length) problems.push(`${where}: no resource named "${resource}"`);
    else if (missing.length > 0) problems.push(`${where}: resource "${resource}" is not in API version(s) ${missing.join(', ')}`);
    for (const f of found) if (f.name !== undefined) out.add(f.name);
  }
  return out;
}

function checkAdds(adds: unknown, names: ResourceNames, where: string, problems: string[]): string[] {
  const list = checkList(adds, 'adds', where, problems, (f) => FIELD.test(f), 'field names: letters, digits and _');
  if (!list) return [];
  const attributes = list.filter((field) => names.hasAttribute(field));
  if (attributes.length > 0) {
    problems.push(
      `${where}: adds ${attributes.join(', ')}, which a resource has as an attribute (writes would leave it out): name the added field otherwise`,
    );
  }
  return list;
}
