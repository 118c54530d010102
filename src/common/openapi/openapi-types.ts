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
