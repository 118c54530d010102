import { IsBoolean, IsEmail, IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import type { GlobalValues } from '../../common/global-values.js';
import { IsGlobalValues, IsRoleNames, OptionalField } from '../../admin-api/validators.js';

const MAX_LIFETIME = 10 * 365 * 86400;

/** Fields of a user an operator may change; null clears email and keyLifetimeSeconds. */
export class UpdateUserDto {
  @OptionalField()
  @IsRoleNames()
  roles?: string[];

  @OptionalField()
  @IsGlobalValues()
  globals?: GlobalValues;

  @OptionalField({ nullable: true })
  @IsEmail()
  @MaxLength(254)
  email?: string | null;

  @OptionalField({ nullable: true })
  @IsInt()
  @Min(1)
  @Max(MAX_LIFETIME)
  keyLifetimeSeconds?: number | null;

  @OptionalField()
  @IsBoolean()
  active?: boolean;
}

export class CreateUserDto extends UpdateUserDto {
  /** No spaces and no colon, so a login name never looks like a key with its `:n` suffix. */
  @IsString()
  @Matches(/^[^\s:]{1,100}$/, { message: 'login must be 1 to 100 characters without spaces or ":"' })
  login!: string;

  @IsString()
  @MaxLength(1024)
  password!: string;
}

export class SetPasswordDto {
  @IsString()
  @MaxLength(1024)
  password!: string;
}
