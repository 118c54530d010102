import type { Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import type { JsonObject } from '../../common/openapi/openapi-types.js';

/** One check class-validator keeps for a DTO's property (`@IsString()`, `@MaxLength(100)`, `@IsOptional()`, …). */
type ValidationMetadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

/** The schema of `IsGlobalValues` (see globalValuesProblem): identifier names, JSON scalars. */
const GLOBAL_VALUES: JsonObject = {
  type: 'object',
  description: 'Global values, name → value: usable as @{name} in row filters.',
  maxProperties: 100,
  propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]{0,99}$' },
  additionalProperties: { type: ['string', 'number', 'boolean', 'null'], maxLength: 1000 },
};

/** One property of a DTO: its name, whether a body must hold it, and its schema. */
export interface DtoProperty {
  name: string;
  required: boolean;
  schema: JsonObject;
}

/** Checks that say only the JSON type. */
const TYPE_OF = new Map([
  ['isString', 'string'],
  ['isInt', 'integer'],
  ['isNumber', 'number'],
  ['isBoolean', 'boolean'],
  ['isArray', 'array'],
]);

/** Checks whose one argument is a JSON Schema bound, and that bound's keyword. */
const BOUND_OF = new Map([
  ['arrayMaxSize', 'maxItems'],
  ['arrayMinSize', 'minItems'],
  ['minLength', 'minLength'],
  ['maxLength', 'maxLength'],
  ['min', 'minimum'],
  ['max', 'maximum'],
]);

/**
 * What one class-validator check says in JSON Schema, set on `target` (the property's schema, or
 * its items' for `each` checks). False for a check this does not know: the property's schema
 * then names it under `x-unmapped-checks`, and the admin OpenAPI test fails until it is mapped here.
 */
function applyCheck(check: ValidationMetadata, target: JsonObject, patterns: string[]): boolean {
  // Checks without arguments (isString) have no constraints at all, whatever class-validator's type says.
  const first = (check.constraints as unknown[] | undefined)?.[0];
  const name = check.name ?? '';
  const type = TYPE_OF.get(name);
  if (type !== undefined) {
    target.type = type;
    return true;
  }
  const bound = BOUND_OF.get(name);
  if (bound !== undefined) {
    target[bound] = first;
    return true;
  }
  switch (name) {
    case 'isIn':
      target.enum = [...(first as unknown[])];
      return true;
    case 'matches':
      patterns.push(first instanceof RegExp ? first.source : String(first));
      return true;
    case 'isEmail':
      Object.assign(target, { type: 'string', format: 'email' });
      return true;
    case 'isIso8601':
      Object.assign(target, { type: 'string', format: 'date-time' });
      return true;
    case 'isGlobalValues':
      Object.assign(target, GLOBAL_VALUES);
      return true;
    default:
      return false;
  }
}

/** The schema of one property from its checks. */
function propertySchema(name: string, checks: ValidationMetadata[]): DtoProperty {
  const schema: JsonObject = {};
  const items: JsonObject = {};
  const patterns: string[] = [];
  const unmapped: string[] = [];
  let required = true;
  let nullable = false;
  for (const check of checks) {
    if (check.type === 'conditionalValidation') {
      const condition = (check.constraints as unknown[] | undefined)?.[0] as ((object: object, value: unknown) => boolean) | undefined;
      // `@IsOptional()`, `@OptionalField()`: the checks are skipped for an absent field, so a body may leave it out.
      if (check.name === 'isOptional' || (typeof condition === 'function' && !condition({}, undefined))) required = false;
      // `@OptionalField({ nullable: true })`, `@ValidateIf((_o, v) => v !== null)`: the checks are skipped for null,
      // so null is a value the API takes. (`@IsOptional()` skips null too, which is why admin bodies do not use it.)
      if (check.name !== 'isOptional' && typeof condition === 'function' && !condition({}, null)) nullable = true;
      continue;
    }
    // `@IsDefined()` (`@OptionalField()` refusing null): a typed or enumerated schema refuses null already.
    if (check.type === 'isDefined') continue;
    if (check.type !== 'customValidation' || !applyCheck(check, check.each ? items : schema, patterns)) {
      unmapped.push(check.name ?? check.type);
    }
    if (typeof check.message === 'string' && schema.description === undefined) schema.description = check.message;
  }
  if (Object.keys(items).length > 0) schema.items = items;
  if (patterns.length === 1) schema.pattern = patterns[0];
  if (patterns.length > 1) schema.allOf = patterns.map((pattern) => ({ pattern }));
  if (nullable && typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  if (unmapped.length > 0) schema['x-unmapped-checks'] = unmapped;
  return { name, required, schema };
}

/** The properties of a class-validator DTO (its parents' included), in declaration order. */
export function dtoProperties(dto: Type): DtoProperty[] {
  const checks = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const check of checks) byProperty.set(check.propertyName, [...(byProperty.get(check.propertyName) ?? []), check]);
  return [...byProperty].map(([name, propertyChecks]) => propertySchema(name, propertyChecks));
}

/**
 * The JSON Schema of a request body checked against `dto` by the admin API's ValidationPipe:
 * unknown fields are refused (400 / 4000), so none are allowed here either.
 */
export function dtoSchema(dto: Type): JsonObject {
  const properties = dtoProperties(dto);
  const required = properties.filter((p) => p.required).map((p) => p.name);
  return {
    type: 'object',
    ...(required.length > 0 ? { required } : {}),
    properties: Object.fromEntries(properties.map((p) => [p.name, p.schema])),
    additionalProperties: false,
  };
}
