import { errorRefs } from '../../common/openapi/error-responses.js';
import { jsonContent, ref, type JsonObject } from '../../common/openapi/openapi-types.js';

/** The schema name of an object sent to the API root (reserved: no resource's schema takes it). */
export const MIXED_OBJECT = 'MixedObject';

const WRITE_NOTE =
  'Content-Type: application/json. Any query parameter not listed is 400 / 4000. The whole request is one transaction; ' +
  'the answer lists every row it changed, rule-induced ones included.';

/** An object of a mixed write: any resource's attributes, and the resource named in @metadata. */
export function mixedObjectSchema(): JsonObject {
  return {
    type: 'object',
    description:
      'An object of any resource, which @metadata names: by entity (<prefix>:<table>, or a table or custom resource name, in any case) ' +
      "or by a full href (<base>/<resource>/<key>). The other properties are that resource's attributes.",
    required: ['@metadata'],
    properties: {
      '@metadata': {
        type: 'object',
        properties: {
          entity: { type: 'string', description: 'The resource the object is written through.' },
          href: { type: 'string', description: "The object's URL: names its resource and its key." },
          action: {
            enum: ['INSERT', 'UPDATE', 'DELETE', 'LOOKUP', 'MERGE_INSERT'],
            description: "Case-insensitive; the verb's by default.",
          },
          checksum: { type: 'string', pattern: '^(R:[0-9a-f]{16}|override)$', description: 'Required to update or delete.' },
        },
        anyOf: [{ required: ['entity'] }, { required: ['href'] }],
      },
    },
    additionalProperties: true,
  };
}

/**
 * LAC's "Mix and Match" at the API root (`<base>` itself): POST and PUT of objects of several
 * resources, each naming its own, in one transaction.
 */
export function mixedWritePaths(): Record<string, JsonObject> {
  const objects = { oneOf: [ref('schemas', MIXED_OBJECT), { type: 'array', items: ref('schemas', MIXED_OBJECT), minItems: 1 }] };
  const result = (status: '200' | '201', description: string): JsonObject => ({
    [status]: { description, content: jsonContent(ref('schemas', 'WriteResult')) },
  });
  const each =
    "Each object names its resource (400 / 4000 otherwise, and for a name that is no resource the caller's roles know) and is " +
    "written through it, under the caller's roles on that resource (403 / 4030 when they do not permit the object's action).";
  return {
    '/': {
      post: {
        tags: ['mixed'],
        operationId: 'insert_mixed',
        summary: 'Write objects of several resources (inserts by default)',
        description: `${each} Objects without @metadata.action are inserted. ${WRITE_NOTE}`,
        parameters: [ref('parameters', 'txsummary')],
        requestBody: { required: true, content: jsonContent(objects) },
        responses: { ...result('201', 'Written.'), ...errorRefs(400, 401, 403, 404, 409, 413, 415, 422) },
      },
      put: {
        tags: ['mixed'],
        operationId: 'update_mixed',
        summary: 'Write objects of several resources (updates by default)',
        description: `${each} Objects without @metadata.action are updated: each names its row by href or key attributes and carries @metadata.checksum ("override" skips the check). ${WRITE_NOTE}`,
        parameters: [ref('parameters', 'If-Match'), ref('parameters', 'txsummary')],
        requestBody: { required: true, content: jsonContent(objects) },
        responses: { ...result('200', 'Written.'), ...errorRefs(400, 401, 403, 404, 409, 413, 415, 422) },
      },
    },
  };
}
