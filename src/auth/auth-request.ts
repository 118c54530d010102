import { ApiError } from '../common/api-error.js';
import { keyFromCredential } from '../http/authorization-header.js';
import { ErrorCode } from '../common/error-codes.js';
import type { LoginPayload } from '../provider/auth-provider.js';

/** What a POST to `@authentication` asks for (api-contract §3), read from its body. */
export type AuthRequest =
  { kind: 'login'; payload: LoginPayload } | { kind: 'revalidate'; apikey: string } | { kind: 'disable'; apikey: string };

const MAX_USERNAME = 200;
/** Far above bcrypt's 72 bytes, but stops megabyte "passwords" before any work is done. */
const MAX_SECRET = 1024;
const MAX_APIKEY = 500;
const TOKEN_FIELDS = new Set(['apikey', 'disable']);

function badRequest(message: string): never {
  throw new ApiError(ErrorCode.BAD_REQUEST, message);
}

function optionalString(body: Record<string, unknown>, field: string, maxLength: number): void {
  const value = body[field];
  if (value === undefined) return;
  if (typeof value !== 'string') badRequest(`"${field}" must be a string.`);
  if (value.length > maxLength) badRequest(`"${field}" is longer than ${maxLength} characters.`);
}

function tokenRequest(body: Record<string, unknown>): AuthRequest {
  const unexpected = Object.keys(body).find((field) => !TOKEN_FIELDS.has(field));
  if (unexpected) badRequest(`Unexpected field "${unexpected}": send {username, password}, {apikey} or {apikey, disable: true}.`);
  optionalString(body, 'apikey', MAX_APIKEY);
  const apikey = keyFromCredential(body.apikey as string);
  if (!apikey) badRequest('"apikey" must not be empty.');
  if (body.disable !== undefined && typeof body.disable !== 'boolean') badRequest('"disable" must be a boolean.');
  return { kind: body.disable === true ? 'disable' : 'revalidate', apikey };
}

/**
 * Reads the body: `{apikey}` re-validates, `{apikey, disable: true}` disables, anything
 * else is a login. A login for a built-in provider (`username-password`) needs string
 * `username` and `password`; a custom provider (`any`) reads whatever credential fields its
 * clients send (`id_token`, a lone `password`, ...), so only their sizes are checked here.
 * Wrong shapes and types are 400 / 4000.
 */
export function parseAuthRequest(body: unknown, credentials: 'username-password' | 'any' = 'username-password'): AuthRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) badRequest('The request body must be a JSON object.');
  const fields = body as Record<string, unknown>;
  if ('apikey' in fields) return tokenRequest(fields);
  optionalString(fields, 'username', MAX_USERNAME);
  for (const secret of ['password', 'new_password', 'newPassword']) optionalString(fields, secret, MAX_SECRET);
  if (credentials === 'any') return { kind: 'login', payload: fields };
  if (typeof fields.username !== 'string' || fields.username === '' || typeof fields.password !== 'string') {
    badRequest('Send {username, password} to log in, or {apikey} to re-validate a token.');
  }
  return { kind: 'login', payload: fields };
}
