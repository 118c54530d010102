import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import type { ParameterDefinition, ParameterType, ParameterValue, ParameterValues } from './function-definition.js';

export const PARAMETER_TYPES: readonly ParameterType[] = ['number', 'integer', 'string', 'boolean', 'date'];
/** A parameter name: what a query string holds without encoding. */
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** The most parameters one function may declare. */
const MAX_PARAMETERS = 32;
/** A string parameter's most characters when it declares none. */
export const STRING_LENGTH_DEFAULT = 1000;

const NUMBER = /^-?(?:\d{1,15}(?:\.\d{1,15})?|\.\d{1,15})(?:[eE][+-]?\d{1,3})?$/;
const INTEGER = /^-?\d{1,15}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Problems of one extension's declared parameters (for the boot's one message), each prefixed by `where`. */
export function parameterProblems(where: string, parameters: unknown): string[] {
  if (parameters === undefined) return [];
  if (parameters === null || typeof parameters !== 'object' || Array.isArray(parameters)) return [`${where}: parameters must be an object`];
  const entries = Object.entries(parameters as Record<string, ParameterDefinition | null>);
  const problems: string[] = [];
  if (entries.length > MAX_PARAMETERS) problems.push(`${where}: at most ${MAX_PARAMETERS} parameters`);
  for (const [name, definition] of entries) {
    const at = `${where}, parameter "${name}"`;
    if (!PARAMETER_NAME.test(name)) problems.push(`${at}: a name is letters, digits and _ (not first), at most 64`);
    if (typeof definition !== 'object' || definition === null) {
      problems.push(`${at}: must be an object with a type`);
      continue;
    }
    if (!PARAMETER_TYPES.includes(definition.type)) {
      problems.push(`${at}: unknown type ${JSON.stringify(definition.type)} (${PARAMETER_TYPES.join(', ')})`);
      continue;
    }
    const numeric = definition.type === 'number' || definition.type === 'integer';
    for (const bound of ['min', 'max'] as const) {
      if (definition[bound] === undefined) continue;
      if (!numeric) problems.push(`${at}: ${bound} is for number and integer parameters`);
      else if (typeof definition[bound] !== 'number' || !Number.isFinite(definition[bound]))
        problems.push(`${at}: ${bound} must be a number`);
    }
    for (const bound of ['minLength', 'maxLength'] as const) {
      if (definition[bound] === undefined) continue;
      if (definition.type !== 'string') problems.push(`${at}: ${bound} is for string parameters`);
      else if (!Number.isSafeInteger(definition[bound]) || definition[bound] < 0) problems.push(`${at}: ${bound} must be a whole number`);
    }
    if (definition.min !== undefined && definition.max !== undefined && definition.min > definition.max) {
      problems.push(`${at}: min is greater than max`);
    }
    if (definition.maxLength !== undefined && definition.maxLength > 10_000) problems.push(`${at}: maxLength is at most 10000`);
  }
  return problems;
}

/**
 * The request's parameters, checked against the declared ones: an undeclared one (besides `reserved`,
 * which the endpoint itself takes), a repeated one, a missing required one or a value that is not of its
 * type or outside its bounds is 400 / 4000 naming it.
 */
export function parameterValues(
  label: string,
  declared: Readonly<Record<string, ParameterDefinition>> | undefined,
  query: Readonly<Record<string, unknown>>,
  reserved: ReadonlySet<string>,
): ParameterValues {
  const declarations = declared ?? {};
  const values: Record<string, ParameterValue> = {};
  for (const [name, raw] of Object.entries(query)) {
    if (reserved.has(name)) continue;
    const definition = Object.hasOwn(declarations, name) ? declarations[name] : undefined;
    if (!definition) {
      const known = Object.keys(declarations);
      throw bad(
        `Unknown parameter "${name.slice(0, 64)}" for the ${label}; ${known.length ? `it takes ${known.join(', ')}` : 'it takes none'}.`,
      );
    }
    if (typeof raw !== 'string') throw bad(`Parameter "${name}" may be given once, as text.`);
    values[name] = valueOf(name, definition, raw);
  }
  const missing = Object.entries(declarations).filter(([name, d]) => d.required === true && !(name in values));
  if (missing.length > 0) throw bad(`The ${label} needs the parameter(s) ${missing.map(([name]) => name).join(', ')}.`);
  return values;
}

function valueOf(name: string, definition: ParameterDefinition, raw: string): ParameterValue {
  switch (definition.type) {
    case 'number':
    case 'integer': {
      const integer = definition.type === 'integer';
      if (!(integer ? INTEGER : NUMBER).test(raw)) throw bad(`Parameter "${name}" must be ${integer ? 'a whole number' : 'a number'}.`);
      const value = Number(raw);
      if (!Number.isFinite(value) || (integer && !Number.isSafeInteger(value))) throw bad(`Parameter "${name}" is out of range.`);
      if ((definition.min !== undefined && value < definition.min) || (definition.max !== undefined && value > definition.max)) {
        throw bad(`Parameter "${name}" must be from ${definition.min ?? '-∞'} to ${definition.max ?? '∞'}.`);
      }
      return value;
    }
    case 'boolean':
      if (raw !== 'true' && raw !== 'false') throw bad(`Parameter "${name}" must be true or false.`);
      return raw === 'true';
    case 'date': {
      const match = DATE.exec(raw);
      const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : undefined;
      if (!date || date.toISOString().slice(0, 10) !== raw) throw bad(`Parameter "${name}" must be a date, YYYY-MM-DD.`);
      return raw;
    }
    case 'string': {
      const most = definition.maxLength ?? STRING_LENGTH_DEFAULT;
      const length = [...raw].length;
      if (length > most || length < (definition.minLength ?? 0)) {
        throw bad(`Parameter "${name}" must be ${definition.minLength ?? 0} to ${most} characters long.`);
      }
      return raw;
    }
  }
}

function bad(message: string): ApiError {
  return new ApiError(ErrorCode.BAD_REQUEST, message);
}

/**
 * A function sub-resource's parameters from the object it is read for (`{ customer: 'name' }` → `customer` is the
 * object's `name`), as a request's query would give them: text; a value that is absent, null, or not a string,
 * number or boolean is not passed.
 */
export function parametersFrom(
  parameters: ReadonlyArray<{ parameter: string; attribute: string }>,
  containing: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const query: Record<string, string> = {};
  for (const { parameter, attribute } of parameters) {
    const value = containing[attribute];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') query[parameter] = String(value);
  }
  return query;
}
