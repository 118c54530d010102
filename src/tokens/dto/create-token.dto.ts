import { IsISO8601, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import type { GlobalValues } from '../../common/global-values.js';
import { MANUAL_KEY_PATTERN } from '../token-value.js';
import { IsGlobalValues, IsRoleNames, OptionalField } from '../../admin-api/validators.js';

/** A hand-made token (spec §2.1): label, optional key, user identifier, roles, globals, expiration. */
export class CreateTokenDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  label!: string;

  @OptionalField()
  @IsString()
  @Matches(MANUAL_KEY_PATTERN, { message: 'key must be 16 to 200 characters of A-Z a-z 0-9 . _ ~ -' })
  key?: string;

  @OptionalField()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  userIdentifier?: string;

  @OptionalField()
  @IsRoleNames()
  roles?: string[];

  @OptionalField()
  @IsGlobalValues()
  globals?: GlobalValues;

  /** ISO 8601 with a time zone; absent or null: never expires. */
  @OptionalField({ nullable: true })
  @IsISO8601({ strict: true })
  @Matches(/(Z|[+-]\d{2}:?\d{2})$/, { message: 'expiration must give a time zone, e.g. 2030-01-01T00:00:00Z' })
  expiration?: string | null;
}
