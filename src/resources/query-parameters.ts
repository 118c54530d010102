import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { excerpt } from '../data/query/limits.js';

/**
 * The query parameters each resource endpoint accepts: the one place that knows them (api-contract §5–§6).
 * Any other parameter is 400 / 4000 naming it: a client that asks for something Tessera does not do is told
 * so, rather than answered as if it had not asked. The check is a Set lookup per parameter the request has.
 */
export type ResourceEndpoint = 'list' | 'count' | 'get' | 'value' | 'insert' | 'update' | 'delete';

/**
 * `pagesize` on a single-object GET and on writes: LAC's Node SDK sends its default `pagesize` (set with
 * setPageSize) on every GET, POST and PUT. A single object and a write result are never paged, so it is
 * honoured trivially; its value is checked all the same.
 * `inlinelimit`, `userfilter`, `userorder` and `rulesummary` are LAC's; their syntax is checked here.
 */
const ACCEPTED: Record<ResourceEndpoint, ReadonlySet<string>> = {
  list: new Set([
    'filter',
    'sysfilter',
    'order',
    'sysorder',
    'pagesize',
    'offset',
    'auth',
    'nometa',
    'inlinelimit',
    'userfilter',
    'userorder',
  ]),
  count: new Set(['filter', 'sysfilter', 'auth']),
  get: new Set(['auth', 'nometa', 'inlinelimit', 'pagesize']),
  value: new Set(['auth']),
  insert: new Set(['txsummary', 'rulesummary', 'pagesize']),
  update: new Set(['txsummary', 'rulesummary', 'pagesize']),
  delete: new Set(['checksum', 'txsummary', 'rulesummary']),
};

/** LAC's per-level parameters, `<name>.<Path>` with Path a sub-resource below the one addressed. */
const PER_LEVEL = new Set(['filter', 'sysfilter', 'order', 'sysorder']);
const TAKES_PER_LEVEL: ReadonlySet<ResourceEndpoint> = new Set(['list', 'get']);
/**
 * What a custom resource's collection takes besides: its named filters and orders (defined in
 * resources.ts; a table's, in the project's `tableQueries`, are in `list`) and `parent`, which the
 * `next_batch` link of a child array uses.
 */
const CUSTOM_LIST: ReadonlySet<string> = new Set(['userfilter', 'userorder', 'parent']);

/** Whether a resource has a sub-resource at a path such as `Orders.Lineitems`; table resources have none. */
export type SubResourcePaths = (path: string) => boolean;

/** What the response options among the parameters ask for. */
export interface ResponseOptions {
  /** `nometa=true`: objects without `@metadata`. */
  nometa: boolean;
  /** `txsummary=false`: a write answers `{statusCode}` alone. */
  txsummary: boolean;
  /** `rulesummary=true`: a write answers the rules that fired, per row. */
  rulesummary: boolean;
}

const DEFAULTS: ResponseOptions = Object.freeze({ nometa: false, txsummary: true, rulesummary: false });
const MAX_WHOLE_NUMBER = 1_000_000_000;

/**
 * Refuses any parameter `endpoint` does not accept (400 / 4000 naming it), checks the values of the response
 * options and of the LAC parameters accepted but served elsewhere, and returns the response options.
 * `subResources` is given for a custom resource: it accepts the per-level forms (`filter.Orders`) for the
 * paths it names, and on its collection `userfilter`, `userorder` and `parent`.
 */
export function acceptQueryParameters(
  query: Record<string, unknown>,
  endpoint: ResourceEndpoint,
  subResources?: SubResourcePaths,
): ResponseOptions {
  const names = Object.keys(query);
  if (names.length === 0) return DEFAULTS;
  const accepted = ACCEPTED[endpoint];
  for (const name of names) {
    if (!accepted.has(name) && !isPerLevel(name, endpoint, subResources) && !isCustomList(name, endpoint, subResources)) {
      throw new ApiError(
        ErrorCode.BAD_REQUEST,
        `Unknown query parameter "${excerpt(name, 64)}"; this request accepts: ${[...accepted].join(', ')}.`,
      );
    }
  }
  if (query.inlinelimit !== undefined) wholeNumber(query.inlinelimit, 'inlinelimit');
  if (query.userfilter !== undefined) text(query.userfilter, 'userfilter');
  if (query.userorder !== undefined) text(query.userorder, 'userorder');
  if (endpoint !== 'list' && query.pagesize !== undefined) wholeNumber(query.pagesize, 'pagesize', 1);
  return {
    nometa: flag(query.nometa, 'nometa', false),
    txsummary: flag(query.txsummary, 'txsummary', true),
    rulesummary: flag(query.rulesummary, 'rulesummary', false),
  };
}

function isCustomList(name: string, endpoint: ResourceEndpoint, subResources: SubResourcePaths | undefined): boolean {
  return subResources !== undefined && endpoint === 'list' && CUSTOM_LIST.has(name);
}

function isPerLevel(name: string, endpoint: ResourceEndpoint, subResources: SubResourcePaths | undefined): boolean {
  if (subResources === undefined || !TAKES_PER_LEVEL.has(endpoint)) return false;
  const dot = name.indexOf('.');
  return dot > 0 && PER_LEVEL.has(name.slice(0, dot)) && subResources(name.slice(dot + 1));
}

/** The one value of a parameter given at most once, as text. */
function text(value: unknown, name: string): string {
  if (Array.isArray(value)) throw new ApiError(ErrorCode.BAD_REQUEST, `Query parameter "${name}" may be given once.`);
  if (typeof value !== 'string') throw new ApiError(ErrorCode.BAD_REQUEST, `Query parameter "${name}" must be text.`);
  return value;
}

/** `true` or `false` only; `fallback` when absent. */
function flag(value: unknown, name: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  const given = text(value, name);
  if (given === 'true') return true;
  if (given === 'false') return false;
  throw new ApiError(ErrorCode.BAD_REQUEST, `Query parameter "${name}" must be true or false.`);
}

function wholeNumber(value: unknown, name: string, min = 0): number {
  const given = text(value, name);
  if (!/^\d{1,10}$/.test(given) || Number(given) < min || Number(given) > MAX_WHOLE_NUMBER) {
    throw new ApiError(ErrorCode.BAD_REQUEST, `Query parameter "${name}" must be a whole number from ${min} to ${MAX_WHOLE_NUMBER}.`);
  }
  return Number(given);
}
