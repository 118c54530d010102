import { applyDecorators } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsString, MaxLength, MinLength, ValidateBy } from 'class-validator';
import { globalValuesProblem } from '../common/global-values.js';

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
