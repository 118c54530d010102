/** bcrypt reads at most 72 bytes of a password and stops at a NUL byte: longer ones would be cut silently. */
export const BCRYPT_MAX_BYTES = 72;
export const PASSWORD_MIN_LENGTH = 8;

/** True when bcrypt sees the whole of `password`, so two different passwords never share a hash. */
export function fitsBcrypt(password: string): boolean {
  return Buffer.byteLength(password, 'utf8') <= BCRYPT_MAX_BYTES && !password.includes('\0');
}

/** Why `password` may not be set as a new password, or undefined when it may. */
export function passwordProblem(password: string): string | undefined {
  if ([...password].length < PASSWORD_MIN_LENGTH) return `The password is too short: at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.includes('\0')) return 'The password may not contain a NUL character.';
  if (!fitsBcrypt(password)) return `The password is too long: at most ${BCRYPT_MAX_BYTES} bytes in UTF-8.`;
  return undefined;
}
