import type { JsonObject, OpenApiDocument } from '../../common/openapi/openapi-types.js';

/**
 * `@docs?format=swagger2`: the OpenAPI 3.1 document of this API (`buildOpenApiDocument`) said again in Swagger 2.0,
 * for tools that read nothing newer (LAC 5 served Swagger 2.0; its CLI saves `@docs` as "Swagger 2.0 Doc").
 *
 * Written here rather than taken from npm: the converters there either go the other way (swagger2openapi), stop at
 * OpenAPI 3.0 (they refuse 3.1's `type: [..., "null"]`), or pull in a large tree for a document whose shapes Tessera
 * itself generates. What 2.0 cannot say is said its way or kept as a vendor extension, never dropped silently:
 * - `type: ["string", "null"]` → `type: "string"` with `x-nullable: true` (2.0 has one type per schema);
 *   several non-null types (a JSON column) → no `type` (any value);
 * - `const` → a one-value `enum`; `examples` → `example` (the first);
 * - `oneOf`/`anyOf` → the one member when the others are only `null` (with `x-nullable`), else a schema of no type
 *   with the members under `x-oneOf`/`x-anyOf` (2.0 has `allOf` alone);
 * - 3.1's numeric `exclusiveMinimum`/`exclusiveMaximum` → `minimum`/`maximum` with the boolean form;
 * - request bodies → one `in: body` parameter; response `content` → `schema` (JSON) and the operation's `produces`;
 * - `components` → `definitions`, `parameters`, `responses`, `securityDefinitions`, every `$ref` rewritten;
 * - the server URL → `schemes`, `host` and `basePath`.
 * Keys 2.0 does not know (response `links`, `style`, `explode`...) are left out; `x-` extensions are kept.
 */
export function toSwagger2(document: OpenApiDocument): JsonObject {
  const { components } = document;
  const server = document.servers?.[0]?.url;
  const swagger: JsonObject = {
    swagger: '2.0',
    info: document.info,
    ...(server === undefined ? {} : serverParts(server)),
    consumes: ['application/json'],
    produces: ['application/json'],
  };
  if (document.security !== undefined) swagger.security = document.security;
  if (document.tags !== undefined) swagger.tags = document.tags;
  swagger.paths = mapValues(document.paths, pathItem);
  swagger.definitions = mapValues(components.schemas, schema);
  swagger.parameters = mapValues(components.parameters, (p) => parameter(p));
  swagger.responses = mapValues(components.responses, response);
  swagger.securityDefinitions = mapValues(components.securitySchemes, securityScheme);
  return swagger;
}

type Json = JsonObject;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapValues(record: Record<string, unknown>, convert: (value: Json) => Json): Json {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, isObject(value) ? convert(value) : value]));
}

function serverParts(url: string): Json {
  const parsed = new URL(url);
  return { schemes: [parsed.protocol.replace(/:$/, '')], host: parsed.host, basePath: parsed.pathname === '' ? '/' : parsed.pathname };
}

/** `#/components/schemas/X` → `#/definitions/X`, and the same for parameters and responses. */
function rewriteRef(ref: string): string {
  return ref
    .replace(/^#\/components\/schemas\//, '#/definitions/')
    .replace(/^#\/components\/parameters\//, '#/parameters/')
    .replace(/^#\/components\/responses\//, '#/responses/');
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

function pathItem(item: Json): Json {
  const out: Json = {};
  if (Array.isArray(item.parameters)) out.parameters = item.parameters.map((p) => parameter(p as Json));
  for (const method of HTTP_METHODS) {
    if (isObject(item[method])) out[method] = operation(item[method]);
  }
  return { ...out, ...extensions(item) };
}

const OPERATION_KEYS = ['tags', 'summary', 'description', 'externalDocs', 'operationId', 'deprecated', 'security'];

function operation(op: Json): Json {
  const out: Json = {};
  for (const key of OPERATION_KEYS) if (op[key] !== undefined) out[key] = op[key];
  const parameters = Array.isArray(op.parameters) ? op.parameters.map((p) => parameter(p as Json)) : [];
  if (isObject(op.requestBody)) parameters.push(bodyParameter(op.requestBody));
  if (parameters.length > 0) out.parameters = parameters;
  const produced = new Set<string>();
  out.responses = isObject(op.responses)
    ? mapValues(op.responses, (r) => {
        if (isObject(r.content)) for (const type of Object.keys(r.content)) produced.add(type);
        return response(r);
      })
    : {};
  if ([...produced].some((type) => type !== 'application/json')) out.produces = [...produced];
  return { ...out, ...extensions(op) };
}

/** A request body as the one `in: body` parameter 2.0 has. */
function bodyParameter(body: Json): Json {
  const content = isObject(body.content) ? body.content : {};
  const media = (content['application/json'] ?? Object.values(content)[0]) as Json | undefined;
  return {
    name: 'body',
    in: 'body',
    required: body.required === true,
    ...(typeof body.description === 'string' ? { description: body.description } : {}),
    schema: isObject(media?.schema) ? schema(media.schema) : {},
  };
}

/** The keywords a 2.0 non-body parameter takes from its schema. */
const PARAMETER_SCHEMA_KEYS = [
  'format',
  'default',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'enum',
  'multipleOf',
];
const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean', 'array']);

function parameter(p: Json): Json {
  if (typeof p.$ref === 'string') return { $ref: rewriteRef(p.$ref) };
  const out: Json = { name: p.name, in: p.in };
  if (typeof p.description === 'string') out.description = p.description;
  if (p.required === true || p.in === 'path') out.required = true;
  const s = isObject(p.schema) ? schema(p.schema) : { type: 'string' };
  Object.assign(out, parameterType(s));
  if (s.type === 'array' && p.in === 'query') out.collectionFormat = p.explode === false ? 'csv' : 'multi';
  return { ...out, ...extensions(p) };
}

/** A converted schema as a non-body parameter's (or a header's, or an array item's) inline type: primitives only. */
function parameterType(s: Json): Json {
  const out: Json = {};
  const type = typeof s.type === 'string' && PRIMITIVES.has(s.type) ? s.type : 'string';
  out.type = type;
  for (const key of PARAMETER_SCHEMA_KEYS) if (s[key] !== undefined) out[key] = s[key];
  if (type === 'array') out.items = isObject(s.items) ? parameterType(s.items) : { type: 'string' };
  return out;
}

function response(r: Json): Json {
  if (typeof r.$ref === 'string') return { $ref: rewriteRef(r.$ref) };
  const out: Json = { description: typeof r.description === 'string' ? r.description : '' };
  if (isObject(r.content)) {
    const media = (r.content['application/json'] ?? Object.values(r.content)[0]) as Json | undefined;
    if (isObject(media?.schema)) out.schema = schema(media.schema);
  }
  if (isObject(r.headers)) {
    out.headers = mapValues(r.headers, (h) => {
      const s = isObject(h.schema) ? schema(h.schema) : { type: 'string' };
      return { ...(typeof h.description === 'string' ? { description: h.description } : {}), ...parameterType(s) };
    });
  }
  return { ...out, ...extensions(r) };
}

function securityScheme(scheme: Json): Json {
  const description = typeof scheme.description === 'string' ? { description: scheme.description } : {};
  if (scheme.type === 'apiKey') return { type: 'apiKey', in: scheme.in, name: scheme.name, ...description };
  if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'basic') return { type: 'basic', ...description };
  // A bearer token is an Authorization header to 2.0.
  return { type: 'apiKey', in: 'header', name: 'Authorization', ...description };
}

/** The keywords a 2.0 schema object takes as they are. */
const SCHEMA_KEYS = [
  'format',
  'title',
  'description',
  'default',
  'multipleOf',
  'maximum',
  'minimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxProperties',
  'minProperties',
  'enum',
  'readOnly',
  'example',
  'externalDocs',
];

const isNullSchema = (s: unknown): boolean => isObject(s) && (s.type === 'null' || (s.const === null && Object.keys(s).length === 1));

/** One JSON Schema 2020-12 schema (OpenAPI 3.1's) as a Swagger 2.0 schema object. */
export function schema(s: Json): Json {
  if (typeof s.$ref === 'string') {
    const described = typeof s.description === 'string' ? { description: s.description } : {};
    return Object.keys(described).length > 0 ? { allOf: [{ $ref: rewriteRef(s.$ref) }], ...described } : { $ref: rewriteRef(s.$ref) };
  }
  const out: Json = {};
  for (const key of SCHEMA_KEYS) if (s[key] !== undefined) out[key] = s[key];
  if (s.examples !== undefined && out.example === undefined && Array.isArray(s.examples) && s.examples.length > 0)
    out.example = s.examples[0];
  if (s.const !== undefined) out.enum = [s.const];
  if (typeof s.exclusiveMinimum === 'number') Object.assign(out, { minimum: s.exclusiveMinimum, exclusiveMinimum: true });
  else if (s.exclusiveMinimum === true) out.exclusiveMinimum = true;
  if (typeof s.exclusiveMaximum === 'number') Object.assign(out, { maximum: s.exclusiveMaximum, exclusiveMaximum: true });
  else if (s.exclusiveMaximum === true) out.exclusiveMaximum = true;

  let nullable = s.nullable === true;
  if (Array.isArray(s.type)) {
    const types = s.type.filter((t) => t !== 'null');
    if (types.length < s.type.length) nullable = true;
    if (types.length === 1) out.type = types[0];
  } else if (typeof s.type === 'string' && s.type !== 'null') {
    out.type = s.type;
  } else if (s.type === 'null') {
    nullable = true;
  }
  if (Array.isArray(s.enum) && s.enum.includes(null)) {
    nullable = true;
    out.enum = s.enum.filter((v) => v !== null);
  }

  if (isObject(s.properties)) out.properties = mapValues(s.properties, schema);
  if (Array.isArray(s.required) && s.required.length > 0) {
    // 2.0 validators want every required property among the properties when there are properties at all.
    const names = isObject(s.properties) ? s.required.filter((n) => Object.hasOwn(s.properties as Json, n as string)) : s.required;
    if (names.length > 0) out.required = names;
  }
  if (s.additionalProperties !== undefined) {
    out.additionalProperties = isObject(s.additionalProperties) ? schema(s.additionalProperties) : s.additionalProperties;
  }
  if (out.type === 'array' || s.items !== undefined) out.items = isObject(s.items) ? schema(s.items) : {};
  if (Array.isArray(s.allOf)) out.allOf = s.allOf.map((m) => schema(m as Json));

  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const members: unknown = s[keyword];
    if (!Array.isArray(members)) continue;
    const nonNull: unknown[] = members.filter((m: unknown) => !isNullSchema(m));
    if (nonNull.length < members.length) nullable = true;
    if (nonNull.length === 1 && isObject(nonNull[0])) {
      const only = schema(nonNull[0]);
      if (typeof only.$ref === 'string') out.allOf = [...((out.allOf as Json[] | undefined) ?? []), only];
      else Object.assign(out, { ...only, ...out });
    } else if (nonNull.length > 1) {
      out[`x-${keyword}`] = nonNull.map((m: unknown) => (isObject(m) ? schema(m) : m));
      if (nonNull.every((m) => isObject(m) && (typeof m.$ref === 'string' || m.type === 'object'))) out.type ??= 'object';
    }
  }
  if (nullable) out['x-nullable'] = true;
  return { ...out, ...extensions(s) };
}

function extensions(value: Json): Json {
  return Object.fromEntries(Object.entries(value).filter(([key]) => key.startsWith('x-')));
}
