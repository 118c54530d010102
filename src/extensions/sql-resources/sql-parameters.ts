import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import { parseDate } from '../../data/date-values.js';
import type { Dialect } from '../../database/dialect.js';
import type { SqlParameterDefinition } from './sql-resource-definition.js';

export type ParameterValue = string | number | boolean | null;

const TYPES = new Set<SqlParameterDefinition['type']>(['number', 'integer', 'string', 'boolean', 'date']);
/** The longest text a parameter takes, whatever its definition says. */
export const PARAMETER_TEXT_LIMIT = 1000;
/** The most parameters a definition declares. */
export const PARAMETER_COUNT_LIMIT = 32;
export const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** What is wrong with the declared parameters (each message names one), `where` leading each. */
export function parameterProblems(
  where: string,
  parameters: Record<string, SqlParameterDefinition>,
  reserved: readonly string[],
): string[] {
  const problems: string[] = [];
  const entries = Object.entries(parameters);
  if (entries.length > PARAMETER_COUNT_LIMIT) problems.push(`${where}: at most ${PARAMETER_COUNT_LIMIT} parameters`);
  for (const [name, parameter] of entries) {
    const at = `${where}, parameter "${name}"`;
    if (!PARAMETER_NAME.test(name)) problems.push(`${at}: a name is letters, digits and _ (not starting with a digit)`);
    if (reserved.includes(name.toLowerCase())) problems.push(`${at}: ${name} is a query parameter of the API itself`);
    if (!TYPES.has(parameter.type)) {
      problems.push(`${at}: unknown type "${parameter.type}" (number, integer, string, boolean or date)`);
      continue;
    }
    const numeric = parameter.type === 'number' || parameter.type === 'integer';
    for (const limit of ['min', 'max'] as const) {
      if (parameter[limit] === undefined) continue;
      if (!numeric) problems.push(`${at}: ${limit} applies to numbers, not to a ${parameter.type}`);
      else if (!Number.isFinite(parameter[limit])) problems.push(`${at}: ${limit} must be a finite number`);
    }
    if (parameter.min !== undefined && parameter.max !== undefined && parameter.min > parameter.max)
      problems.push(`${at}: min is above max`);
    if (parameter.maxLength !== undefined) {
      if (parameter.type !== 'string') problems.push(`${at}: maxLength applies to a string, not to a ${parameter.type}`);
      else if (!Number.isSafeInteger(parameter.maxLength) || parameter.maxLength < 1 || parameter.maxLength > PARAMETER_TEXT_LIMIT)
        problems.push(`${at}: maxLength must be a whole number from 1 to ${PARAMETER_TEXT_LIMIT}`);
    }
  }
  return problems;
}

/**
 * A request's value of a declared parameter, checked against its type and limits (400 / 4000 naming the
 * parameter otherwise); absent: NULL, or 400 when it is required.
 */
export function parameterValue(name: string, parameter: SqlParameterDefinition, raw: unknown): ParameterValue {
  if (Array.isArray(raw)) throw refused(name, 'may be given once');
  if (raw !== undefined && typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean')
    throw refused(name, 'must be a value');
  if (raw === undefined || raw === '') {
    if (parameter.required) throw refused(name, 'is required');
    return null;
  }
  const text = String(raw);
  if (text.length > (parameter.maxLength ?? PARAMETER_TEXT_LIMIT)) {
    throw refused(name, `may be at most ${parameter.maxLength ?? PARAMETER_TEXT_LIMIT} characters long`);
  }
  switch (parameter.type) {
    case 'string':
      if (text.includes('\u0000')) throw refused(name, 'may not hold a NUL character');
      return text;
    case 'boolean':
      if (text !== 'true' && text !== 'false') throw refused(name, 'must be true or false');
      return text === 'true';
    case 'date':
      if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || parseDate(text) === undefined) throw refused(name, 'must be a date, YYYY-MM-DD');
      return text;
    case 'number':
    case 'integer': {
      const integer = parameter.type === 'integer';
      const pattern = integer ? /^-?\d{1,15}$/ : /^-?\d{1,15}(\.\d{1,15})?$/;
      if (!pattern.test(text)) throw refused(name, integer ? 'must be a whole number' : 'must be a number, e.g. 12.5');
      const value = Number(text);
      if (parameter.min !== undefined && value < parameter.min) throw refused(name, `must be at least ${parameter.min}`);
      if (parameter.max !== undefined && value > parameter.max) throw refused(name, `must be at most ${parameter.max}`);
      return value;
    }
  }
}

/** A value of the parameter's type, for running the SQL once at boot. */
export function sampleValue(parameter: SqlParameterDefinition): ParameterValue {
  return { number: 0, integer: 0, string: '', boolean: false, date: '2000-01-01' }[parameter.type];
}

/**
 * A bound value's placeholder: PostgreSQL infers a parameter's type from where it stands, and so is told it
 * (`CAST($1 AS numeric)`: `COALESCE(:min, 0)` would otherwise take integers only); the others bind as given.
 */
export function typedPlaceholder(dialect: Dialect, placeholder: string, type: SqlParameterDefinition['type'] | undefined): string {
  if (dialect !== 'postgres' || type === undefined) return placeholder;
  const sqlType = { number: 'numeric', integer: 'bigint', string: 'text', boolean: 'boolean', date: 'date' }[type];
  return `CAST(${placeholder} AS ${sqlType})`;
}

function refused(name: string, why: string): ApiError {
  return new ApiError(ErrorCode.BAD_REQUEST, `Parameter "${name.slice(0, 64)}" ${why}.`);
}
