import { errorRefs } from '../../common/openapi/error-responses.js';
import { jsonContent, ref, type JsonObject } from '../../common/openapi/openapi-types.js';
import { COUNT_BOUND } from '../read-query.js';

export interface SystemPathOptions {
  /** Security requirements of a token-protected GET; undefined means the document's default. */
  getSecurity?: JsonObject[];
  /** `@docs` answers without a token (DOCS_PUBLIC). */
  docsPublic: boolean;
  /** `@count` takes `filter` too (ALLOW_FREE_FORM_FILTERS). */
  allowFreeFormFilters: boolean;
}

const PUBLIC: JsonObject = { security: [] };
const META_NOTE = 'Needs a token whose roles have meta access (403 / 4030 otherwise).';

const str = { type: 'string' };

const strOrNull = { type: ['string', 'null'] };

/** Schemas of the system endpoints' bodies (api-contract §1, §3). */
export function systemSchemas(): Record<string, JsonObject> {
  return {
    LoginRequest: {
      type: 'object',
      description:
        'Log in through the configured provider; each login creates a new token. With ?enablePasswordChange!, new_password (or newPassword) changes the password too.',
      required: ['username', 'password'],
      properties: {
        username: str,
        password: { type: 'string', format: 'password' },
        new_password: { type: 'string', format: 'password' },
        newPassword: { type: 'string', format: 'password' },
      },
      additionalProperties: true,
    },
    RevalidateRequest: {
      type: 'object',
      description: 'Re-validate a token (the provider is not asked).',
      required: ['apikey'],
      properties: { apikey: str },
      additionalProperties: false,
    },
    DisableRequest: {
      type: 'object',
      description: 'Disable a token (also a success on one already disabled or expired).',
      required: ['apikey', 'disable'],
      properties: { apikey: str, disable: { const: true } },
      additionalProperties: false,
    },
    TokenResponse: {
      type: 'object',
      description:
        'The token and who it belongs to; providers may add fields. lastLoginTs / lastLoginIP describe the previous successful login.',
      required: ['apikey', 'expiration', 'lastLoginTs', 'lastLoginIP', 'email'],
      properties: {
        apikey: str,
        expiration: { type: ['string', 'null'], format: 'date-time' },
        lastLoginTs: { type: ['string', 'null'], format: 'date-time' },
        lastLoginIP: strOrNull,
        email: strOrNull,
        changePasswordResult: { enum: ['success', 'failure', 'notSupported'] },
        changePasswordMessage: str,
      },
      additionalProperties: true,
    },
    DisabledToken: {
      type: 'object',
      required: ['apikey', 'disabled'],
      properties: { apikey: str, disabled: { const: true } },
    },
    LoginInfo: {
      type: 'object',
      required: ['fields', 'links'],
      properties: {
        fields: { type: 'array', items: { type: 'object', properties: { name: str, display: str, type: { enum: ['text', 'password'] } } } },
        links: { type: 'array', items: {} },
      },
    },
    Heartbeat: { type: 'object', required: ['status'], properties: { status: { const: 'OK' } } },
    License: {
      type: 'object',
      required: ['company', 'license_type', 'license_expiration'],
      properties: {
        company: str,
        license_type: str,
        license_expiration: { ...str, description: '"never": the Apache License 2.0 does not expire (LAC\'s CLI prints it at login).' },
      },
    },
    ResourceDescription: {
      allOf: [ref('schemas', 'ResourceSummary')],
      type: 'object',
      description: "One resource as @resources lists it, with its attributes (and a custom resource's sub-resources).",
      properties: {
        attributes: { type: 'array', items: { type: 'object', properties: { name: str, column_name: str } } },
        subresources: { type: 'array', items: str, description: "A custom resource's nested levels." },
      },
    },
    DataSource: {
      type: 'object',
      description: 'The data source of this API: never its URL, host, user or password.',
      properties: {
        name: str,
        ident: { type: 'integer' },
        prefix: { ...str, description: 'The prefix of <prefix>:<table> names and of @schema/<prefix>.' },
        databaseType: { enum: ['sqlite', 'mysql', 'mariadb', 'postgres'] },
        active: { type: 'boolean' },
        schema_editable: { type: 'boolean' },
        comments: strOrNull,
        tables: { type: 'integer', minimum: 0 },
        views: { type: 'integer', minimum: 0 },
      },
    },
    ApiOption: {
      type: 'object',
      description: "One API option in LAC's shape: every value as text.",
      required: ['ident', 'name', 'option_value', 'data_type', 'default_value'],
      properties: {
        ident: { type: 'integer' },
        name: str,
        description: str,
        option_value: str,
        data_type: { enum: ['boolean', 'number', 'string'] },
        default_value: str,
        valid_value: strOrNull,
      },
    },
    Rule: {
      type: 'object',
      description:
        'A rule of the rule bank; entityName, columnName and bestName repeat entity, attribute and name under the names LAC clients read.',
      required: ['ident', 'kind', 'entity', 'attribute', 'name'],
      properties: {
        ident: { type: 'integer', minimum: 1, description: "Its place in the project's list of rules." },
        kind: { enum: ['sum', 'count', 'min', 'max', 'formula', 'copy', 'constraint', 'commitConstraint', 'early', 'after', 'commit'] },
        entity: { ...strOrNull, description: 'The resource it derives or checks (an aggregate: the parent); null for a commit event.' },
        attribute: { ...strOrNull, description: 'The attribute it derives; null for constraints and events.' },
        name: str,
        entityName: strOrNull,
        columnName: strOrNull,
        bestName: str,
      },
    },
    ApiEvent: {
      type: 'object',
      description:
        'A request or response event of the project\'s (README, "Request and response events"): its filters and time limit, never its code.',
      required: ['name', 'kind', 'resources', 'methods', 'versions', 'timeoutMs', 'adds'],
      properties: {
        name: str,
        kind: { enum: ['request', 'response'] },
        resources: { oneOf: [{ type: 'array', items: str }, { type: 'null' }], description: 'The resources it runs on; null: every one.' },
        methods: {
          oneOf: [{ type: 'array', items: { enum: ['GET', 'POST', 'PUT', 'DELETE'] } }, { type: 'null' }],
          description: 'null: every method.',
        },
        versions: { oneOf: [{ type: 'array', items: str }, { type: 'null' }], description: 'null: every version.' },
        timeoutMs: { type: 'integer', minimum: 1 },
        adds: {
          type: 'array',
          items: str,
          description: "The fields a response event adds to its resources' objects (left out of writes).",
        },
      },
    },
    ApiVersion: {
      type: 'object',
      description: 'An API version served, with its OpenAPI document and the custom resources it serves.',
      required: ['@metadata', 'name', 'docs', 'customResources'],
      properties: {
        '@metadata': { type: 'object', properties: { href: { ...str, description: "The version's API base." } } },
        name: str,
        docs: { ...str, description: "The version's @docs." },
        customResources: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: str,
              versions: { oneOf: [{ type: 'array', items: str }, { type: 'null' }], description: 'null: in every version.' },
            },
          },
        },
      },
    },
    Perf: {
      type: 'object',
      required: ['since', 'uptimeSeconds', 'resources'],
      properties: {
        since: { type: 'string', format: 'date-time', description: 'When this process started counting.' },
        uptimeSeconds: { type: 'integer', minimum: 0 },
        resources: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              resource: str,
              resource_type: { enum: ['TableBased', 'Custom'] },
              requests: { type: 'integer', minimum: 0 },
              errors: { type: 'integer', minimum: 0, description: 'Answers with a status of 400 or more.' },
              totalMs: { type: 'number' },
              averageMs: { type: 'number' },
              minMs: { type: 'number' },
              maxMs: { type: 'number' },
              byMethod: { type: 'object', additionalProperties: { type: 'integer' } },
            },
          },
        },
      },
    },
    ProviderInfo: {
      type: 'object',
      description: 'The authentication provider: its name and the settings it takes, described, never with their values.',
      properties: {
        ident: { type: 'integer' },
        name: str,
        kind: { enum: ['built-in', 'custom'] },
        parameters: { type: 'array', items: { type: 'object', additionalProperties: true } },
        loginFields: { type: 'array', items: { type: 'object', additionalProperties: true } },
      },
    },
    ServerInfo: {
      type: 'object',
      properties: {
        name: str,
        version: str,
        account: str,
        project: str,
        apiVersions: { type: 'array', items: str },
        databaseType: { enum: ['sqlite', 'mysql', 'mariadb', 'postgres'] },
        httpAdapter: { enum: ['express', 'fastify'] },
        uptimeSeconds: { type: 'integer' },
        serverTime: { type: 'string', format: 'date-time' },
      },
    },
    ResourceSummary: {
      type: 'object',
      description:
        'A resource this API serves. name, resource_type, prefix, entity, apiVersion and @metadata.href are the fields LAC clients read.',
      properties: {
        '@metadata': {
          type: 'object',
          properties: { href: { type: 'string', format: 'uri', description: "The resource's collection URL." } },
        },
        name: str,
        resource_type: {
          enum: ['TableBased', 'Custom', 'JavaScript', 'FreeSQL', 'StoredProcedure'],
          description:
            "TableBased: a table as it is; Custom: a nested resource defined by the project; JavaScript: a function resource, answered by the project's code; FreeSQL: a SELECT of the project's (a SQL resource); StoredProcedure: a routine of the database.",
        },
        prefix: { ...str, description: 'The data source prefix of its table.' },
        entity: {
          ...strOrNull,
          description:
            "Its table (for a custom resource, the table of its top level; for a function resource, its rows' table or null); null for FreeSQL and StoredProcedure.",
        },
        apiVersion: str,
        is_collection: { type: 'boolean' },
        description: strOrNull,
        prefixedName: { ...str, description: 'prefix:table, the other name a table resource answers to.' },
        table: strOrNull,
        primaryKey: { type: 'array', items: str },
        readOnly: { const: true, description: 'Present on a view and a SQL resource: only GET.' },
        parameters: {
          type: 'array',
          description: 'FreeSQL and StoredProcedure: the values it takes.',
          items: { type: 'object', properties: { name: str, type: str, required: { type: 'boolean' } } },
        },
        methods: { type: 'array', items: str, description: 'Present on a function resource: the methods it answers.' },
      },
    },
    TableRelation: {
      type: 'object',
      description:
        'A relation of the table: to a parent (many-to-one, in parents) or to children (one-to-many, in children). ' +
        "child_columns and parent_columns pair up, in the order of the parent's key.",
      properties: {
        name: { ...str, description: 'parents: the many-to-one relation; children: the child table.' },
        parent: str,
        columns: { type: 'array', items: { type: 'object', properties: { child: str, parent: str } } },
        child: str,
        via: { ...str, description: "The child's many-to-one relation this one is the inverse of." },
        role: { ...str, description: 'The role name its links carry in @metadata.links.' },
        parent_table: { ...str, description: 'prefix:table' },
        child_table: { ...str, description: 'prefix:table' },
        child_columns: { type: 'array', items: str },
        parent_columns: { type: 'array', items: str },
      },
    },
    Table: {
      type: 'object',
      description: 'A table (in @tables and @schema) or a view (in @views).',
      properties: {
        '@metadata': {
          type: 'object',
          properties: {
            href: { type: 'string', format: 'uri', description: "<base>/@tables/<prefix>:<table>, a view's <base>/@views/<prefix>:<view>" },
          },
        },
        readOnly: { const: true, description: 'Present on a view: only GET; its key is the one its entity declares, or none.' },
        name: str,
        prefix: str,
        entity: str,
        columns: { type: 'array', items: ref('schemas', 'TableColumn') },
        primaryKey: { type: 'array', items: str },
        primaryKeyColumns: { type: 'array', items: str, description: 'The same as primaryKey (the name LAC clients read).' },
        parents: { type: 'array', items: ref('schemas', 'TableRelation') },
        children: { type: 'array', items: ref('schemas', 'TableRelation') },
      },
    },
    TableColumn: {
      type: 'object',
      properties: {
        name: str,
        dbName: str,
        type: { enum: ['string', 'integer', 'decimal', 'boolean', 'date', 'datetime'] },
        size: { type: ['integer', 'null'] },
        precision: { type: ['integer', 'null'] },
        scale: { type: ['integer', 'null'] },
        nullable: { type: 'boolean' },
        generated: { type: 'boolean' },
        derived: { type: 'boolean', description: 'Computed by a logic rule (a sum, count, formula...): clients may not set it.' },
        primaryKey: { type: 'boolean' },
      },
    },
    Count: {
      type: 'object',
      required: ['count', 'more'],
      properties: {
        count: { type: 'integer', minimum: 0, maximum: COUNT_BOUND },
        more: { type: 'boolean', description: `true: at least ${COUNT_BOUND} rows (the count stops there).` },
      },
    },
  };
}

function ok(description: string, schema: JsonObject): JsonObject {
  return { 200: { description, content: jsonContent(schema) } };
}

/** The query of the meta lists (`@resources`, `@tables`, ...): any other parameter is 400 / 4000. */
const META_LIST_PARAMETERS: JsonObject[] = [
  {
    name: 'sysorder',
    in: 'query',
    required: false,
    description: "(field:asc|desc|asc_uc|desc_uc, ...) over the entries' own fields, e.g. (entity:asc_uc).",
    schema: str,
  },
  {
    name: 'pagesize',
    in: 'query',
    required: false,
    description: 'Entries per page (the whole list without it); a next_batch element ends a cut page.',
    schema: { type: 'integer', minimum: 1, maximum: 5000 },
  },
  { name: 'offset', in: 'query', required: false, description: 'Entries to skip.', schema: { type: 'integer', minimum: 0 } },
];

/**
 * `@authentication`, `@login_info`, `@auth_provider_info`, `@heartbeat`, `@license`, `@serverinfo`, `@resources`,
 * `@resources/<ident>`, `@data_sources`, `@apioptions`, `@rules`, `@events`, `@versions`, `@perf`, `@tables`, `@schema`, `@count`, `@views`,
 * `@procedures`, `@functions`, `@docs`.
 */
export function systemPaths(options: SystemPathOptions): Record<string, JsonObject> {
  const tokenGet = options.getSecurity ? { security: options.getSecurity } : {};
  const system = ['system'];
  return {
    '/@authentication': {
      post: {
        tags: ['authentication'],
        operationId: 'authenticate',
        summary: 'Log in, re-validate or disable a token (alias: @authenticate)',
        ...PUBLIC,
        parameters: [
          {
            name: 'enablePasswordChange!',
            in: 'query',
            required: false,
            allowEmptyValue: true,
            schema: str,
            description: 'Present (the name exactly so, "!" included): change the password while logging in.',
          },
        ],
        requestBody: {
          required: true,
          content: jsonContent({
            oneOf: [ref('schemas', 'LoginRequest'), ref('schemas', 'DisableRequest'), ref('schemas', 'RevalidateRequest')],
          }),
        },
        responses: {
          ...ok('The token (login, re-validation) or the disabled token.', {
            oneOf: [ref('schemas', 'TokenResponse'), ref('schemas', 'DisabledToken')],
          }),
          ...errorRefs(400, 401, 404, 413, 415, 429),
        },
      },
    },
    '/@login_info': {
      get: {
        tags: ['authentication'],
        operationId: 'loginInfo',
        summary: 'The login fields of the configured provider',
        ...PUBLIC,
        responses: { ...ok('Login fields.', ref('schemas', 'LoginInfo')), ...errorRefs(404) },
      },
    },
    '/@auth_provider_info/{ident}': {
      get: {
        tags: ['authentication'],
        operationId: 'authProviderInfo',
        summary: 'The authentication provider: its name, the settings it takes and its login fields',
        description: 'Any token may ask. Settings are described, never with their values (operators see those in the admin API).',
        ...tokenGet,
        parameters: [{ name: 'ident', in: 'path', required: true, description: '1 (the one provider) or its name.', schema: str }],
        responses: { ...ok('The provider.', ref('schemas', 'ProviderInfo')), ...errorRefs(400, 401, 404) },
      },
    },
    '/@heartbeat': {
      get: {
        tags: system,
        operationId: 'heartbeat',
        summary: 'Liveness',
        ...PUBLIC,
        responses: { ...ok('The service is up.', ref('schemas', 'Heartbeat')), ...errorRefs(404) },
      },
    },
    '/@license': {
      get: {
        tags: system,
        operationId: 'license',
        summary: 'License',
        ...PUBLIC,
        responses: { ...ok('The license.', ref('schemas', 'License')), ...errorRefs(404) },
      },
    },
    '/@serverinfo': {
      get: {
        tags: system,
        operationId: 'serverInfo',
        summary: 'Name, version, database type and uptime',
        ...tokenGet,
        responses: { ...ok('Server information.', ref('schemas', 'ServerInfo')), ...errorRefs(401, 404) },
      },
    },
    '/@resources': {
      get: {
        tags: system,
        operationId: 'listResources',
        summary: 'The resources this API serves',
        description: META_NOTE,
        ...tokenGet,
        parameters: META_LIST_PARAMETERS,
        responses: { ...ok('Every resource.', { type: 'array', items: ref('schemas', 'ResourceSummary') }), ...errorRefs(401, 403, 404) },
      },
    },
    '/@resources/{ident}': {
      get: {
        tags: system,
        operationId: 'getResource',
        summary: 'One resource with its attributes',
        description: `${META_NOTE} An unknown name is 404 / 4040.`,
        ...tokenGet,
        parameters: [
          {
            name: 'ident',
            in: 'path',
            required: true,
            description: "The resource's name: a table's plain or prefixed name, a custom resource's name; any case.",
            schema: str,
          },
        ],
        responses: { ...ok('The resource.', ref('schemas', 'ResourceDescription')), ...errorRefs(400, 401, 403, 404) },
      },
    },
    '/@data_sources': {
      get: {
        tags: system,
        operationId: 'listDataSources',
        summary: "The API's data source: its prefix and database kind",
        description: META_NOTE,
        ...tokenGet,
        parameters: META_LIST_PARAMETERS,
        responses: {
          ...ok('The data sources (one).', { type: 'array', items: ref('schemas', 'DataSource') }),
          ...errorRefs(400, 401, 403, 404),
        },
      },
    },
    '/@apioptions': {
      get: {
        tags: system,
        operationId: 'apiOptions',
        summary: 'The API options (page sizes, Aggregate Default Override, HTTP Basic, response format...)',
        description: `${META_NOTE} An object keyed by each option's ident, as LAC answers.`,
        ...tokenGet,
        responses: {
          ...ok('The options.', { type: 'object', additionalProperties: ref('schemas', 'ApiOption') }),
          ...errorRefs(400, 401, 403, 404),
        },
      },
    },
    '/@rules': {
      get: {
        tags: system,
        operationId: 'listRules',
        summary: 'The logic rules: kind, entity, attribute and name of each',
        description: META_NOTE,
        ...tokenGet,
        parameters: META_LIST_PARAMETERS,
        responses: {
          ...ok("Every rule, in the project's order.", { type: 'array', items: ref('schemas', 'Rule') }),
          ...errorRefs(400, 401, 403, 404),
        },
      },
    },
    '/@events': {
      get: {
        tags: system,
        operationId: 'listEvents',
        summary: 'The request and response events: name, kind, filters and time limit of each',
        description: META_NOTE,
        ...tokenGet,
        parameters: META_LIST_PARAMETERS,
        responses: {
          ...ok("Every event, request events first, each kind in the project's order.", {
            type: 'array',
            items: ref('schemas', 'ApiEvent'),
          }),
          ...errorRefs(400, 401, 403, 404),
        },
      },
    },
    '/@versions': {
      get: {
        tags: system,
        operationId: 'listVersions',
        summary: 'The API versions served, each with its @docs and custom resources',
        description: META_NOTE,
        ...tokenGet,
        parameters: META_LIST_PARAMETERS,
        responses: {
          ...ok('Every version served.', { type: 'array', items: ref('schemas', 'ApiVersion') }),
          ...errorRefs(400, 401, 403, 404),
        },
      },
    },
    '/@perf': {
      get: {
        tags: system,
        operationId: 'perf',
        summary: 'Requests per resource since the process started, with their times',
        description:
          'For operators: needs an admin token (Authorization: Bearer <key> from POST /admin/v1/login) of an auditor or an admin; ' +
          'an API token is refused (401), whatever its roles. Each process counts its own.',
        responses: { ...ok('The figures.', ref('schemas', 'Perf')), ...errorRefs(400, 401, 403, 404) },
      },
    },
    '/@tables': {
      get: {
        tags: system,
        operationId: 'listTables',
        summary: 'Every table with its columns',
        description: META_NOTE,
        ...tokenGet,
        parameters: META_LIST_PARAMETERS,
        responses: { ...ok('Every table.', { type: 'array', items: ref('schemas', 'Table') }), ...errorRefs(401, 403, 404) },
      },
    },
    '/@tables/{name}': {
      get: {
        tags: system,
        operationId: 'getTable',
        summary: 'One table with its columns',
        description: `${META_NOTE} The name "*" answers every table (an array).`,
        ...tokenGet,
        parameters: [
          { name: 'name', in: 'path', required: true, description: 'A resource name, plain or prefixed, any case; or *.', schema: str },
        ],
        responses: {
          ...ok('The table.', { oneOf: [ref('schemas', 'Table'), { type: 'array', items: ref('schemas', 'Table') }] }),
          ...errorRefs(401, 403, 404),
        },
      },
    },
    '/@schema/{prefix}': {
      get: {
        tags: system,
        operationId: 'getSchema',
        summary: "A data source's tables, columns, keys and relations in one document",
        description: `${META_NOTE} An unknown prefix is 404 / 4040.`,
        ...tokenGet,
        parameters: [
          { name: 'prefix', in: 'path', required: true, description: 'The data source prefix (any case).', schema: str },
          {
            name: 'projectId',
            in: 'query',
            required: false,
            description: "LAC's project ident; ignored (this API has one project).",
            schema: str,
          },
          ...META_LIST_PARAMETERS,
        ],
        responses: {
          ...ok('Every table of the data source.', { type: 'array', items: ref('schemas', 'Table') }),
          ...errorRefs(401, 403, 404),
        },
      },
    },
    '/@count/{resource}': {
      get: {
        tags: system,
        operationId: 'countRows',
        summary: "How many rows a table resource's list would page through",
        description:
          "Needs READ on the resource, as its list does, and counts as the list reads: only rows the caller's roles may read, filters " +
          `on readable columns only (400 / 4003 otherwise). Counted up to ${COUNT_BOUND} rows. A custom resource is 400 / 4000.`,
        ...tokenGet,
        parameters: [
          { name: 'resource', in: 'path', required: true, description: 'A table resource, plain or prefixed, any case.', schema: str },
          ...(options.allowFreeFormFilters ? [ref('parameters', 'filter')] : []),
          ref('parameters', 'sysfilter'),
        ],
        responses: { ...ok('The count.', ref('schemas', 'Count')), ...errorRefs(400, 401, 403, 404) },
      },
    },
    '/@views': {
      get: {
        tags: system,
        operationId: 'listViews',
        summary: 'Every view this API serves (read-only), with its columns',
        description: META_NOTE,
        ...tokenGet,
        parameters: META_LIST_PARAMETERS,
        responses: { ...ok('Every view.', { type: 'array', items: ref('schemas', 'Table') }), ...errorRefs(401, 403, 404) },
      },
    },
    '/@views/{name}': {
      get: {
        tags: system,
        operationId: 'getView',
        summary: 'One view with its columns',
        description: `${META_NOTE} The name "*" answers every view (an array); a table's name is 404 / 4040 (see @tables).`,
        ...tokenGet,
        parameters: [
          {
            name: 'name',
            in: 'path',
            required: true,
            description: 'A view resource name, plain or prefixed, any case; or *.',
            schema: str,
          },
        ],
        responses: {
          ...ok('The view.', { oneOf: [ref('schemas', 'Table'), { type: 'array', items: ref('schemas', 'Table') }] }),
          ...errorRefs(401, 403, 404),
        },
      },
    },
    '/@procedures': {
      get: {
        tags: system,
        operationId: 'listProcedures',
        summary: 'The stored procedures and functions this API serves',
        description: `${META_NOTE} Each is called at its href: GET with arg.<parameter>=<value>, or POST with an object of its arguments.`,
        ...tokenGet,
        parameters: META_LIST_PARAMETERS,
        responses: { ...ok('The procedures.', { type: 'array', items: ref('schemas', 'ResourceSummary') }), ...errorRefs(401, 403, 404) },
      },
    },
    '/@functions': {
      get: {
        tags: ['system'],
        operationId: 'listFunctions',
        summary: "The project's row and resource functions of tables",
        description: `${META_NOTE} Function resources are listed in @resources (resource_type JavaScript).`,
        parameters: META_LIST_PARAMETERS,
        responses: {
          ...ok('One object per function: name, functionType (rowLevel, resourceLevel), resource_names, parameters, methods.', {
            type: 'array',
            items: { type: 'object' },
          }),
          ...errorRefs(401, 403, 404),
        },
      },
    },
    '/@docs': {
      get: {
        tags: system,
        operationId: 'openApiDocument',
        summary: 'This document (Swagger 2.0 with format=swagger2)',
        parameters: [
          {
            name: 'format',
            in: 'query',
            required: false,
            description: 'openapi (the default): this OpenAPI 3.1 document; swagger2: the same API in Swagger 2.0.',
            schema: { enum: ['openapi', 'swagger2'] },
          },
        ],
        ...(options.docsPublic
          ? { ...PUBLIC, description: 'Public on this server (DOCS_PUBLIC).' }
          : { ...tokenGet, description: META_NOTE }),
        responses: {
          ...ok('The OpenAPI 3.1 (or Swagger 2.0) document of this API, generated from its resources.', { type: 'object' }),
          ...errorRefs(...(options.docsPublic ? [400, 404] : [400, 401, 403, 404])),
        },
      },
    },
  };
}
