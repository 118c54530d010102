/**
 * `@metadata` in answers and bodies, for the events: what a response event may not change (hrefs, checksums,
 * next_batch links, a txsummary's verbs), and the fields response events add that a client sends back. The walks
 * keep their own stack: a body nested deep is no reason to run out of the call stack.
 */
const METADATA = '@metadata';

/** Calls `visit` on every plain object in `value` (arrays walked, `@metadata` values not entered). */
function eachObject(value: unknown, visit: (object: Record<string, unknown>) => void): void {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== 'object') continue;
    if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
      continue;
    }
    const object = next as Record<string, unknown>;
    visit(object);
    for (const [key, child] of Object.entries(object)) if (key !== METADATA) pending.push(child);
  }
}

/** Every `@metadata` in an answer, as JSON text. */
export function metadataOf(answer: unknown): ReadonlySet<string> {
  const found = new Set<string>();
  eachObject(answer, (object) => {
    if (Object.hasOwn(object, METADATA)) found.add(JSON.stringify(object[METADATA]));
  });
  return found;
}

/** Makes every `@metadata` in `value` read-only, to its depths: changing one in place throws (project modules are strict). */
export function freezeMetadata<T>(value: T): T {
  eachObject(value, (object) => {
    if (Object.hasOwn(object, METADATA)) deepFreeze(object[METADATA]);
  });
  return value;
}

function deepFreeze(value: unknown): void {
  const pending = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== 'object' || Object.isFrozen(next)) continue;
    Object.freeze(next);
    for (const child of Object.values(next)) pending.push(child);
  }
}

/**
 * True when every `@metadata` in a reshaped answer is one of the original's as it was (objects may be reordered,
 * copied, left out or given new fields; their `@metadata` may not be altered or made up).
 */
export function answerKeepsMetadata(reshaped: unknown, original: ReadonlySet<string>): boolean {
  let kept = true;
  eachObject(reshaped, (object) => {
    if (kept && Object.hasOwn(object, METADATA)) kept = original.has(JSON.stringify(object[METADATA]));
  });
  return kept;
}

/** Removes `fields` from every object of a body, at any depth (`@metadata` left alone), in place; answers the body. */
export function withoutFields<T>(body: T, fields: ReadonlySet<string>): T {
  if (fields.size === 0) return body;
  eachObject(body, (object) => {
    for (const field of fields) if (Object.hasOwn(object, field)) Reflect.deleteProperty(object, field);
  });
  return body;
}
