import { isKeyless, type Resource } from '../../data/resource-registry.js';
import { errorRefs } from '../../common/openapi/error-responses.js';
import { jsonContent, readContent, ref, type JsonObject } from '../../common/openapi/openapi-types.js';
import { LAC_GET_PARAMETERS, WRITE_PARAMETERS } from '../query-parameters.js';

/** What of the API's settings changes the resource operations. */
export interface ResourceOperationOptions {
  allowFreeFormFilters: boolean;
  pageSizeDefault: number;
  pageSizeMax: number;
  /** Security requirements of a GET (the header, and `?auth=` when permitted); undefined means the document's default. */
  getSecurity?: JsonObject[];
}

const FILTER_LIMITS = 'At most 4 KiB and 200 conditions, columns and values; a syntax error is 400 / 4001 with its position.';
const QUOTING =
  "Quoted texts take JavaScript's escapes: \\uNNNN, \\n, \\r, \\t, \\\\, \\', \\\" (any other backslash is itself), or a doubled quote; " +
  'a column may be written double-quoted ("name"). On a custom resource, a level\'s attribute names and the column names it shows both work (attributes win).';
const SORT_MODIFIERS =
  'asc, desc, asc_uc / desc_uc (by upper case), asc_lc / desc_lc (by lower case), null_first / null_last (ascending, nulls first or last)';

/** LAC's per-request parameters, as components. */
function lacParameters(): Record<string, JsonObject> {
  const query = (name: string, description: string, schema: JsonObject): JsonObject => ({
    name,
    in: 'query',
    required: false,
    description,
    schema,
  });
  const names = (name: string, what: string): JsonObject => ({
    name,
    in: 'query',
    required: false,
    style: 'form',
    explode: true,
    description:
      `Resource.attribute names (comma-separated, repeatable; tables: resource and column names, also in a write's txsummary) whose text is ${what}. ` +
      'deferred wins over inline, both over inlinelimit. Names matching nothing in the answer change nothing.',
    schema: { type: 'array', items: { type: 'string', pattern: '^[^,]+\\.[^,.]+(,[^,]+\\.[^,.]+)*$' } },
  });
  return {
    rulesummary: query('rulesummary', 'true: the answer adds "rulesummary", the rules that ran on each row of the txsummary.', {
      type: 'string',
      enum: ['true', 'false'],
      default: 'false',
    }),
    rulelog: query(
      'rulelog',
      'true: the answer adds "rulelog", every rule that fired, in the order it ran, on the rows of the txsummary: type, name, the attribute it derives, ' +
        'the row (@metadata as in the txsummary, and its key), and old and new values of the attribute (formulas, copies, sums, counts, min, max) or an outcome ' +
        '(passed: constraints and parent checks; ran: events and allocations). Rows, and columns of them, the caller may not read are left out. ' +
        'Only for roles with meta access (metaAccess); others get 403 / 4030.',
      { type: 'string', enum: ['true', 'false'], default: 'false' },
    ),
    logging: query(
      'logging',
      "LAC's per-request log level: error, warning, info, debug, finer or finest, or area=level pairs separated by commas (sql=finest,*=info). " +
        "debug, finer and finest log this request's detail (endpoint, resource, parameter names, rows answered, time; never a value) at debug under its request id, whatever the service's log level.",
      { type: 'string', maxLength: 512 },
    ),
    debug: query('debug', 'true: as logging=debug for this request (LAC ran its JavaScript in debug mode; Tessera has none).', {
      type: 'string',
      enum: ['true', 'false'],
      default: 'false',
    }),
    downloadName: query(
      'downloadName',
      'The answer is a download of this name: Content-Disposition: attachment; filename="<ASCII form>"; filename*=UTF-8\'\'<name> (RFC 6266). 1 to 255 characters, no control characters.',
      { type: 'string', minLength: 1, maxLength: 255 },
    ),
    deferred: names('deferred', 'always sent as a link to the value ({"@metadata": {"href", "length"}}), whatever its length'),
    inline: names('inline', 'always sent whole, whatever its length'),
    inlinelimit: query(
      'inlinelimit',
      'Text longer than this many characters is sent as {"@metadata": {"href": <URL answering the whole value>, "length": n}}. GETs: default 2000. ' +
        "Writes: shapes the txsummary's inserted and updated rows (without it, whole values). -1: no limit.",
      { type: 'integer', minimum: -1, maximum: 1000000000 },
    ),
    procrowlimit: query(
      'procrowlimit',
      "LAC's row limit for stored procedure results; on a table or custom resource: checked, no effect.",
      {
        type: 'integer',
        minimum: -1,
        maximum: 1000000000,
      },
    ),
    procinlinelimit: query(
      'procinlinelimit',
      "LAC's inlinelimit for stored procedure results; on a table or custom resource: checked, no effect.",
      {
        type: 'integer',
        minimum: -1,
        maximum: 1000000000,
      },
    ),
    chunksize: query(
      'chunksize',
      "LAC's tuning of how many queries read a custom resource's sub-levels. Tessera reads each level with one query per batch of parent rows whatever it says: checked, no effect on the answer.",
      { type: 'integer', minimum: 1, maximum: 1000000000 },
    ),
    ignoredeleted: query(
      'ignoredeleted',
      'true (or given without a value): deleting a row that is not there (or that the caller cannot see) answers 200 with an empty txsummary instead of 404 / 4041.',
      { type: 'string', enum: ['', 'true', 'false'], default: 'false' },
    ),
  };
}

/** The shared query parameters of collection reads (api-contract §5); `filter` and `order` only when free-form queries are allowed. */
export function queryParameters(options: ResourceOperationOptions): Record<string, JsonObject> {
  const repeatable = (name: string, description: string): JsonObject => ({
    name,
    in: 'query',
    required: false,
    style: 'form',
    explode: true,
    description,
    schema: { type: 'array', items: { type: 'string', maxLength: 4096 } },
  });
  const parameters: Record<string, JsonObject> = {
    sysfilter: repeatable(
      'sysfilter',
      'Structured filter, repeatable (ANDed): equal(col:value, ...), notequal, less, lessequal, greater, greaterequal, like, notlike, ' +
        `null(col), notnull(col); modifiers _or (OR the pairs) and _uc (case-insensitive), e.g. less_or(balance:100, credit_limit:500). ` +
        `Strings in single or double quotes ('O\\'Brien', "say \\"hi\\"", 'Alpha\\u0020and Sons'); a double-quoted text in a column's place is a name: equal("name":'Alpha'). ${QUOTING} ${FILTER_LIMITS}`,
    ),
    sysorder: {
      name: 'sysorder',
      in: 'query',
      required: false,
      schema: { type: 'string' },
      description:
        `Structured order: (col[:modifier], ...), the modifier also after a space, e.g. (name:null_first,balance:desc); modifiers ${SORT_MODIFIERS}; ` +
        'no modifier is ascending; a column may be double-quoted. At most 8 terms with order; the primary key always completes it.',
    },
    pagesize: {
      name: 'pagesize',
      in: 'query',
      required: false,
      description:
        'Objects per page (of a custom resource: per level). When more exist, the last array element is {"@metadata": {"next_batch": "<URL>"}}. Accepted on a single object and on writes (LAC\'s SDK sends it everywhere), where nothing is paged.',
      schema: { type: 'integer', minimum: 1, maximum: options.pageSizeMax, default: options.pageSizeDefault },
    },
    offset: {
      name: 'offset',
      in: 'query',
      required: false,
      description: 'Objects to skip; next_batch links carry it. Ignored on a single object, as in LAC.',
      schema: { type: 'integer', minimum: 0, default: 0 },
    },
    nometa: {
      name: 'nometa',
      in: 'query',
      required: false,
      description: 'true: objects without @metadata (the ETag of a single-object GET stays).',
      schema: { type: 'string', enum: ['true', 'false'], default: 'false' },
    },
    txsummary: {
      name: 'txsummary',
      in: 'query',
      required: false,
      description: 'false: the answer is {"statusCode": ...} alone, without the transaction summary.',
      schema: { type: 'string', enum: ['true', 'false'], default: 'true' },
    },
    checksum: {
      name: 'checksum',
      in: 'query',
      required: false,
      description:
        'The object\'s current @metadata.checksum, or "override" to skip the check. Required unless If-Match carries it (400 / 4004 without either).',
      schema: { type: 'string', pattern: '^(R:[0-9a-f]{16}|override)$' },
    },
    'If-Match': {
      name: 'If-Match',
      in: 'header',
      required: false,
      description: 'The checksum (the ETag of a single-object GET), in place of the one in the body or query.',
      schema: { type: 'string' },
    },
    ...lacParameters(),
    'If-None-Match': {
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description:
        "ETags the client holds (quoted, weak or not, comma-separated), or *: 304 without a body when one is the object's current ETag (* : when the object exists).",
      schema: { type: 'string' },
    },
  };
  if (!options.allowFreeFormFilters) return parameters;
  return {
    filter: repeatable(
      'filter',
      'Free-form filter, repeatable (ANDed): comparisons = <> != < <= > >=, like, not like, in (...), not in (...), between ... and ..., ' +
        `is [not] null, and, or, not, parentheses; literals 'text', numbers, true, false, null; identifiers are the readable columns. ${QUOTING} ${FILTER_LIMITS}`,
    ),
    order: {
      name: 'order',
      in: 'query',
      required: false,
      schema: { type: 'string' },
      description: `Free-form order: col [modifier], ... with modifiers ${SORT_MODIFIERS}; a column may be double-quoted. At most 8 terms with sysorder; the primary key always completes it.`,
    },
    ...parameters,
  };
}

const WRITE_BODY_NOTE =
  'Content-Type: application/json (a body without Content-Type is read as JSON, unless a browser on another site sent it: 415 / 4150). Any query parameter not listed is 400 / 4000. The whole request is one transaction; the answer lists every row it changed, rule-induced ones included. An object naming another resource (@metadata.entity, or a full @metadata.href) is written through that one, in the same transaction.';

/**
 * The operations on one resource: `/<name>` (list, insert, update several) and
 * `/<name>/{key}` (get, update, delete); PATCH is PUT, as in LAC.
 */
export function resourcePaths(resource: Resource, schemaName: string, options: ResourceOperationOptions): Record<string, JsonObject> {
  const tags = [resource.name];
  const row = ref('schemas', schemaName);
  const rows = (item: JsonObject): JsonObject => ({ oneOf: [item, { type: 'array', items: item, minItems: 1 }] });
  const writeResult = (status: '200' | '201', description: string): JsonObject => ({
    [status]: { description, content: jsonContent(ref('schemas', 'WriteResult')) },
  });
  const path = `/${encodeURIComponent(resource.name)}`;
  const txsummary = ref('parameters', 'txsummary');
  const writeParameters = WRITE_PARAMETERS.filter((name) => name !== 'txsummary').map((name) => ref('parameters', name));
  const updateMany: JsonObject = {
    tags,
    operationId: `update_${schemaName}_list`,
    summary: `Update several ${resource.name}`,
    description: `Each object names its row by @metadata.href or by its key columns and carries @metadata.checksum ("override" skips the check); only the sent columns change. ${WRITE_BODY_NOTE}`,
    parameters: [ref('parameters', 'If-Match'), txsummary, ...writeParameters],
    requestBody: { required: true, content: jsonContent(rows(row)) },
    responses: { ...writeResult('200', 'Updated.'), ...errorRefs(400, 401, 403, 404, 409, 413, 415, 422) },
  };
  const updateOne: JsonObject = {
    tags,
    operationId: `update_${schemaName}`,
    summary: `Update one ${resource.name}`,
    description: `Needs the current checksum in @metadata.checksum or If-Match ("override" skips the check); only the sent columns change; the key cannot. ${WRITE_BODY_NOTE}`,
    parameters: [ref('parameters', 'If-Match'), txsummary, ...writeParameters],
    requestBody: { required: true, content: jsonContent(row) },
    responses: { ...writeResult('200', 'Updated.'), ...errorRefs(400, 401, 403, 404, 409, 413, 415, 422) },
  };

  return {
    [path]: {
      get: listOperation(resource, schemaName, options),
      post: {
        tags,
        operationId: `insert_${schemaName}`,
        summary: `Insert ${resource.name}`,
        description: WRITE_BODY_NOTE,
        parameters: [txsummary, ...writeParameters],
        requestBody: { required: true, content: jsonContent(rows(ref('schemas', `${schemaName}.new`))) },
        responses: { ...writeResult('201', 'Inserted.'), ...errorRefs(400, 401, 403, 404, 409, 413, 415, 422) },
      },
      put: updateMany,
      patch: asPatch(updateMany),
    },
    [`${path}/{key}`]: {
      parameters: [ref('parameters', `key.${schemaName}`)],
      get: getOperation(resource, schemaName, options),
      put: updateOne,
      patch: asPatch(updateOne),
      delete: {
        tags,
        operationId: `delete_${schemaName}`,
        summary: `Delete one ${resource.name}`,
        description: 'Needs the current checksum (query or If-Match). Rows deleted with it (cascades, rules) are in the answer too.',
        parameters: [
          ref('parameters', 'checksum'),
          ref('parameters', 'If-Match'),
          txsummary,
          ...writeParameters,
          ref('parameters', 'ignoredeleted'),
        ],
        responses: { ...writeResult('200', 'Deleted.'), ...errorRefs(400, 401, 403, 404, 409, 422) },
      },
    },
  };
}

/** GET of the collection, a table's or a view's. */
function listOperation(resource: Resource, schemaName: string, options: ResourceOperationOptions): JsonObject {
  const queryNames = options.allowFreeFormFilters
    ? ['filter', 'sysfilter', 'order', 'sysorder', 'pagesize', 'offset', 'nometa', ...LAC_GET_PARAMETERS]
    : ['sysfilter', 'sysorder', 'pagesize', 'offset', 'nometa', ...LAC_GET_PARAMETERS];
  const stable = isKeyless(resource)
    ? "every column completes every order (the caller's readable columns first), so pages are stable"
    : 'the primary key completes every order, so pages are stable';
  return {
    tags: [resource.name],
    operationId: `list_${schemaName}`,
    summary: `List ${resource.name}`,
    description:
      "Rows the caller's roles may not read are left out; columns they may not read are omitted." +
      (resource.view ? ` ${VIEW_NOTE}` : '') +
      (options.allowFreeFormFilters ? '' : ' This API refuses free-form filter and order (400 / 4002): use sysfilter and sysorder.'),
    ...(options.getSecurity ? { security: options.getSecurity } : {}),
    parameters: queryNames.map((name) => ref('parameters', name)),
    responses: {
      200: {
        description: `A page of objects, in order; ${stable}.`,
        content: readContent({ type: 'array', items: { anyOf: [ref('schemas', schemaName), ref('schemas', 'NextBatch')] } }),
      },
      ...errorRefs(400, 401, 403, 404, 406),
    },
  };
}

/** GET of one object by its key, a table's or a keyed view's. */
function getOperation(resource: Resource, schemaName: string, options: ResourceOperationOptions): JsonObject {
  const etag = { ETag: { description: "The object's checksum.", schema: { type: 'string' } } };
  return {
    tags: [resource.name],
    operationId: `get_${schemaName}`,
    summary: `Get one ${resource.name} by key`,
    ...(resource.view ? { description: VIEW_NOTE } : {}),
    ...(options.getSecurity ? { security: options.getSecurity } : {}),
    parameters: [
      ref('parameters', 'If-None-Match'),
      ...['nometa', 'pagesize', 'offset', ...LAC_GET_PARAMETERS].map((name) => ref('parameters', name)),
    ],
    responses: {
      200: {
        description: 'An array of zero or one object (none when the key does not exist or the caller may not read the row).',
        headers: etag,
        content: readContent({ type: 'array', items: ref('schemas', schemaName), maxItems: 1 }),
      },
      304: { description: 'The object is unchanged: If-None-Match holds its current ETag. No body.', headers: etag },
      ...errorRefs(400, 401, 403, 404, 406),
    },
  };
}

const VIEW_NOTE = 'A database view, read-only: POST, PUT, PATCH and DELETE answer 405 / 4050 (403 / 4030 to a caller who may not read it).';

/**
 * The operations on a view: GET of the collection, and of one object when the view's entity
 * declares a key. A view without one has no `/{key}` path: its objects carry no @metadata.
 */
export function viewPaths(resource: Resource, schemaName: string, options: ResourceOperationOptions): Record<string, JsonObject> {
  const path = `/${encodeURIComponent(resource.name)}`;
  const paths: Record<string, JsonObject> = { [path]: { get: listOperation(resource, schemaName, options) } };
  if (!isKeyless(resource)) {
    paths[`${path}/{key}`] = { parameters: [ref('parameters', `key.${schemaName}`)], get: getOperation(resource, schemaName, options) };
  }
  return paths;
}

/** LAC answers PATCH as PUT: the same operation under its own id. */
export function asPatch(put: JsonObject): JsonObject {
  return {
    ...put,
    operationId: `patch_${String(put.operationId).slice('update_'.length)}`,
    summary: `${String(put.summary)} (PATCH is PUT)`,
  };
}
