/** An object of the OpenAPI document: plain JSON, built by the functions in this folder. */
export type JsonObject = { [key: string]: unknown };

/** An OpenAPI 3.1 document: the data API's (`@docs`) and the admin API's (`/admin/v1/openapi.json`). */
export interface OpenApiDocument extends JsonObject {
  openapi: '3.1.0';
  info: JsonObject & { title: string; version: string };
  servers?: Array<{ url: string; description?: string }>;
  paths: Record<string, JsonObject>;
  components: {
    schemas: Record<string, JsonObject>;
    responses: Record<string, JsonObject>;
    parameters: Record<string, JsonObject>;
    securitySchemes: Record<string, JsonObject>;
  };
}

/** Which kind of component a `$ref` points into. */
export type ComponentKind = 'schemas' | 'responses' | 'parameters';

/** A reference to a component of the same document. */
export function ref(kind: ComponentKind, name: string): { $ref: string } {
  return { $ref: `#/components/${kind}/${name}` };
}

/** A JSON response body with this schema. */
export function jsonContent(schema: JsonObject): JsonObject {
  return { 'application/json': { schema } };
}

/** A GET's answer: JSON (`schema`), or by `Accept` CSV (a header row, then a row per object) or XML. */
export function readContent(schema: JsonObject): JsonObject {
  return {
    ...jsonContent(schema),
    'text/csv': {
      schema: { type: 'string', description: 'RFC 4180, a header row of the attribute names; the next page in a Link header.' },
    },
    'application/xml': {
      schema: { type: 'string', description: '<data> holding an <object> per object; the next page in a Link header.' },
    },
  };
}

/**
 * A name (of a table, a column, a level) inside a Markdown description, as a code span: Swagger UI
 * renders descriptions as Markdown with HTML, and a code span shows whatever it holds as text
 * (`<img …>`, `*`, `[x](y)`). The fence is longer than any run of backticks in the name.
 */
export function codeSpan(name: string): string {
  const longest = Math.max(0, ...[...name.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^[`\s]|[`\s]$/.test(name) ? ' ' : '';
  return `${fence}${pad}${name}${pad}${fence}`;
}
