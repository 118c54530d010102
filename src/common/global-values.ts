/** One global value: usable as a bound parameter in row filters (`@{name}`), so a JSON scalar. */
export type GlobalValue = string | number | boolean | null;

/** A user's or a token's global values, name -> value (spec §2.2). */
export type GlobalValues = Record<string, GlobalValue>;

const GLOBAL_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

/** Why `value` is not a valid set of global values, or undefined when it is. */
export function globalValuesProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'globals must be an object of name -> value';
  const entries = Object.entries(value);
  if (entries.length > 100) return 'globals may hold at most 100 values';
  for (const [name, v] of entries) {
    if (!GLOBAL_NAME.test(name)) return `global name "${name}" must be an identifier (letters, digits, "_")`;
    const ok = v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
    if (!ok) return `global "${name}" must be a string, a number, a boolean or null`;
    if (typeof v === 'string' && v.length > 1000) return `global "${name}" is longer than 1000 characters`;
    if (typeof v === 'string' && v.includes('\u0000')) return `global "${name}" may not contain the NUL character`;
  }
  return undefined;
}
