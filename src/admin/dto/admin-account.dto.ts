import { IsIn, IsString, Matches, MaxLength } from 'class-validator';
import { ADMIN_ROLES, type AdminRole } from '../../admin-api/admin-principal.js';

/** The policy (length, bytes, NUL) is checked by the service; this bound only keeps bodies small. */
const PASSWORD_MAX = 1024;

export class SetAdminRoleDto {
  @IsIn(ADMIN_ROLES, { message: `role must be one of: ${ADMIN_ROLES.join(', ')}` })
  role!: AdminRole;
}

export class CreateAdminDto extends SetAdminRoleDto {
  /** Plain characters only: the name shows in URLs, the audit trail and log lines as it is. */
  @IsString()
  @Matches(/^[A-Za-z0-9._@+-]{1,100}$/, { message: 'username must be 1 to 100 of A-Z a-z 0-9 . _ @ + -' })
  username!: string;

  @IsString()
  @MaxLength(PASSWORD_MAX)
  password!: string;
}

export class SetAdminPasswordDto {
  @IsString()
  @MaxLength(PASSWORD_MAX)
  password!: string;
}

/** The signed-in admin's own change: the current password, then the new one. */
export class ChangeOwnPasswordDto {
  @IsString()
  @MaxLength(PASSWORD_MAX)
  password!: string;

  @IsString()
  @MaxLength(PASSWORD_MAX)
  newPassword!: string;
}
