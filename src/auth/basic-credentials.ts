import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';

export interface BasicCredentials {
  username: string;
  password: string;
}

/** As for a login body (see auth-request.ts): far above bcrypt's 72 bytes, but no megabyte passwords. */
const MAX_USERNAME = 200;
const MAX_PASSWORD = 1024;

/**
 * The user name and password of `Authorization: Basic <base64 of name:password>` (RFC 7617;
 * UTF-8), or undefined when the header is absent or of another scheme. The password is what
 * follows the first colon.
 *
 * @throws ApiError 401 / 4013 when the credentials cannot be read (so nothing was checked).
 */
export function basicCredentialsOf(header: string | string[] | undefined): BasicCredentials | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^\s*basic\s+(\S*)\s*$/i.exec(header);
  if (!match) return undefined;
  const encoded = match[1]!;
  const unreadable = (): never => {
    throw new ApiError(ErrorCode.LOGIN_FAILED, 'The Basic credentials cannot be read: send base64 of <user name>:<password>.');
  };
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) unreadable();
  const decoded = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let text = '';
  try {
    text = decoded.decode(Buffer.from(encoded, 'base64'));
  } catch {
    unreadable();
  }
  const colon = text.indexOf(':');
  if (colon <= 0) unreadable();
  const username = text.slice(0, colon);
  const password = text.slice(colon + 1);
  if (username.length > MAX_USERNAME || password.length > MAX_PASSWORD || hasControlCharacter(username)) unreadable();
  return { username, password };
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
