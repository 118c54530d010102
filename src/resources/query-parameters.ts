import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { excerpt } from '../data/query/limits.js';
import { isWellFormed } from '../data/value-codec.js';
import { inlinePolicyOf } from './inline-limit.js';

/**
 * The query parameters each resource endpoint accepts: the one place that knows them (api-contract §5–§6).
 * Any other parameter is 400 / 4000 naming it: a client that asks for something Tessera does not do is told
 * so, rather than answered as if it had not asked. The check is a Set lookup per parameter the request has.
 */
export type ResourceEndpoint = 'list' | 'count' | 'get' | 'value' | 'insert' | 'update' | 'delete';

/**
 * LAC's parameters of every GET (its generated Swagger lists them on each resource): `pagesize`, `offset`,
 * `logging`, `debug`, `downloadName`, `deferred`, `inline`, `inlinelimit`, `procrowlimit`, `procinlinelimit`,
 * `chunksize`, `auth`. On a single object `pagesize` pages its sub-resources (custom resources) or nothing, and
 * `offset` is ignored, as in LAC. `procrowlimit` and `procinlinelimit` are about stored procedures (called with
 * `arg.<name>` alone, not through these endpoints), and `chunksize` tunes how LAC splits sub-resource queries, which Tessera batches its own way:
 * their values are checked and they change nothing (README, "Query parameters"). These are the ones besides
 * paging and `auth`; the OpenAPI document lists them on every GET too.
 */
export const LAC_GET_PARAMETERS = [
  'logging',
  'debug',
  'downloadName',
  'deferred',
  'inline',
  'inlinelimit',
  'procrowlimit',
  'procinlinelimit',
  'chunksize',
];
const LAC_GET = ['pagesize', 'offset', ...LAC_GET_PARAMETERS, 'auth'];
/**
 * LAC's parameters of every write. `auth` is LAC's too, but a key in the URL is taken on GETs only (api-contract §2:
 * 401 / 4014 before this check). `pagesize` on writes: LAC's Node SDK sends its default `pagesize` (set with
 * setPageSize) on every GET, POST and PUT; a write result is never paged, so it is honoured trivially.
 */
export const LAC_WRITE_PARAMETERS = ['txsummary', 'rulesummary', 'logging', 'debug', 'deferred', 'inline', 'inlinelimit'];
/**
 * Every write's parameters: LAC's, and Tessera's `rulelog` (the rules that fired, in order, with the values they
 * derived; LAC showed its rule log in its design tool, under the auth token that wrote, and had no parameter for it).
 */
export const WRITE_PARAMETERS = [...LAC_WRITE_PARAMETERS, 'rulelog'];
const ACCEPTED: Record<ResourceEndpoint, ReadonlySet<string>> = {
  list: new Set([...LAC_GET, 'filter', 'sysfilter', 'order', 'sysorder', 'nometa', 'userfilter', 'userorder']),
  count: new Set(['filter', 'sysfilter', 'auth', 'logging', 'debug']),
  get: new Set([...LAC_GET, 'nometa']),
  value: new Set(['auth', 'logging', 'debug', 'downloadName']),
  insert: new Set([...WRITE_PARAMETERS, 'pagesize']),
  update: new Set([...WRITE_PARAMETERS, 'pagesize']),
  delete: new Set(['checksum', ...WRITE_PARAMETERS, 'ignoredeleted']),
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
  /** `rulelog=true`: a write answers every firing in order, with old and new values (roles with meta access only). */
  rulelog: boolean;
  /** `ignoredeleted=true` (or bare `ignoredeleted`): deleting a row that is not there answers 200 with an empty txsummary. */
  ignoreDeleted: boolean;
  /** `logging=debug` (or finer, finest) or `debug=true`: this request's detail is logged (request-detail.ts). */
  detail: boolean;
  /** `downloadName`: the answer is an attachment of that name (`Content-Disposition`). */
  downloadName?: string;
}

const DEFAULTS: ResponseOptions = Object.freeze({
  nometa: false,
  txsummary: true,
  rulesummary: false,
  rulelog: false,
  ignoreDeleted: false,
  detail: false,
});
const MAX_WHOLE_NUMBER = 1_000_000_000;
/** LAC's log levels, most to least severe; the last three raise a request's detail. */
const LOG_LEVELS = new Set(['error', 'warning', 'info', 'debug', 'finer', 'finest']);
const DETAILED = new Set(['debug', 'finer', 'finest']);
const MAX_LOGGING_ENTRIES = 16;
const MAX_DOWNLOAD_NAME = 255;

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
  if (query.inlinelimit !== undefined) text(query.inlinelimit, 'inlinelimit');
  // inlinelimit (-1 is no limit), deferred and inline: their syntax, before any row is read.
  inlinePolicyOf(query);
  if (query.userfilter !== undefined) text(query.userfilter, 'userfilter');
  if (query.userorder !== undefined) text(query.userorder, 'userorder');
  if (endpoint !== 'list' && query.pagesize !== undefined) wholeNumber(query.pagesize, 'pagesize', 1);
  // Checked only: these resources are no procedures, and Tessera batches sub-resource queries its own way.
  for (const name of ['procrowlimit', 'procinlinelimit'] as const) if (query[name] !== undefined) integer(query[name], name, -1);
  if (query.chunksize !== undefined) wholeNumber(query.chunksize, 'chunksize', 1);
  const debug = flag(query.debug, 'debug', false);
  return {
    nometa: flag(query.nometa, 'nometa', false),
    txsummary: flag(query.txsummary, 'txsummary', true),
    rulesummary: flag(query.rulesummary, 'rulesummary', false),
    rulelog: flag(query.rulelog, 'rulelog', false),
    // LAC's Swagger allows it empty: `?ignoredeleted` asks for it.
    ignoreDeleted: query.ignoredeleted === '' || flag(query.ignoredeleted, 'ignoredeleted', false),
    detail: loggingRaisesDetail(query.logging) || debug,
    downloadName: query.downloadName === undefined ? undefined : downloadName(query.downloadName),
  };
}

/**
 * LAC's `logging`: a level (`error`, `warning`, `info`, `debug`, `finer`, `finest`, any case), or comma-separated
 * `<area>=<level>` pairs (`sql=finest,rules=debug`; `*` for every area). Whether any level asks for more than info.
 */
function loggingRaisesDetail(value: unknown): boolean {
  if (value === undefined) return false;
  const entries = text(value, 'logging').split(',');
  if (entries.length > MAX_LOGGING_ENTRIES)
    throw new ApiError(ErrorCode.BAD_REQUEST, `Query parameter "logging" takes at most ${MAX_LOGGING_ENTRIES} entries.`);
  let detailed = false;
  for (const entry of entries) {
    const match = /^\s*(?:([A-Za-z*][A-Za-z0-9_.*]{0,31})\s*=\s*)?([A-Za-z]{1,10})\s*$/.exec(entry);
    const level = match?.[2]!.toLowerCase();
    if (!level || !LOG_LEVELS.has(level)) {
      throw new ApiError(
        ErrorCode.BAD_REQUEST,
        'Query parameter "logging" takes a level (error, warning, info, debug, finer, finest) or area=level pairs separated by commas.',
      );
    }
    detailed ||= DETAILED.has(level);
  }
  return detailed;
}

/** `downloadName`: 1 to 255 characters, no control characters (it goes into a header, encoded: download-name.ts). */
function downloadName(value: unknown): string {
  const given = text(value, 'downloadName');
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (given.length === 0 || given.length > MAX_DOWNLOAD_NAME || /[\u0000-\u001f\u007f-\u009f]/.test(given) || !isWellFormed(given)) {
    throw new ApiError(
      ErrorCode.BAD_REQUEST,
      `Query parameter "downloadName" must be a file name of 1 to ${MAX_DOWNLOAD_NAME} characters without control characters.`,
    );
  }
  return given;
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

/** A whole number from `min` (-1 at the least) to 1000000000. */
function integer(value: unknown, name: string, min: number): number {
  const given = text(value, name);
  if (!/^-?\d{1,10}$/.test(given) || Number(given) < min || Number(given) > MAX_WHOLE_NUMBER) {
    throw new ApiError(ErrorCode.BAD_REQUEST, `Query parameter "${name}" must be a whole number from ${min} to ${MAX_WHOLE_NUMBER}.`);
  }
  return Number(given);
}

function wholeNumber(value: unknown, name: string, min = 0): number {
  const given = text(value, name);
  if (!/^\d{1,10}$/.test(given) || Number(given) < min || Number(given) > MAX_WHOLE_NUMBER) {
    throw new ApiError(ErrorCode.BAD_REQUEST, `Query parameter "${name}" must be a whole number from ${min} to ${MAX_WHOLE_NUMBER}.`);
  }
  return Number(given);
}
