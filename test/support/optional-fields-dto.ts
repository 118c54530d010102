import { IsIn, IsInt, IsString } from 'class-validator';
import { OptionalField } from '../../src/admin-api/validators.js';

/** `OptionalField`s of each kind (plain, nullable, one of a list): what its validation and its OpenAPI schema are checked on. */
export class OptionalFieldsDto {
  @OptionalField()
  @IsString()
  label?: string;

  @OptionalField({ nullable: true })
  @IsInt()
  count?: number | null;

  @OptionalField()
  @IsIn(['a', 'b'])
  kind?: 'a' | 'b';
}
