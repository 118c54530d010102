import { applyDecorators } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsDefined, IsString, MaxLength, MinLength, ValidateBy, ValidateIf } from 'class-validator';
import { globalValuesProblem } from '../common/global-values.js';

export interface OptionalFieldOptions {
  /** Null is a value the field takes (it clears it, say): its checks are skipped for null as for an absent field. */
  nullable?: boolean;
}

/**
 * An admin DTO field a body may leave out: absent, its checks are skipped. Null is refused, 400 / 4000
 * "<field> must not be null", unless `nullable` gives it a meaning. Admin DTOs use this, never class-validator's
 * `@IsOptional()`, which takes null for absent and hands it on to the service (a 500, or the database's NOT NULL
 * answered 422 / 4221 with a table's name). The admin OpenAPI document reads it (see dto-schema.ts): a field
 * that may be absent is not required, and only a `nullable` one has null among its types.
 */
export function OptionalField(options: OptionalFieldOptions = {}): PropertyDecorator {
  if (options.nullable) return ValidateIf((_object, value) => value !== undefined && value !== null);
  // class-validator runs `isDefined` checks before the field's others, so this message comes first.
  return applyDecorators(
    ValidateIf((_object, value) => value !== undefined),
    IsDefined({ message: ({ property }) => `${property} must not be null` }),
  );
}

/** A list of role names. */
export const IsRoleNames = (): PropertyDecorator =>
  applyDecorators(IsArray(), ArrayMaxSize(50), IsString({ each: true }), MinLength(1, { each: true }), MaxLength(100, { each: true }));

/** Global values: identifier names, scalar values (see `globalValuesProblem`). */
export const IsGlobalValues = (): PropertyDecorator =>
  ValidateBy({
    name: 'isGlobalValues',
    validator: {
      validate: (value: unknown) => globalValuesProblem(value) === undefined,
      defaultMessage: (args) => globalValuesProblem(args?.value) ?? 'globals are not valid',
    },
  });
