import { globalValuesProblem } from '../common/global-values.js';
import type { AuthResult, AuthSuccess, LoginInfo, PasswordChangeOutcome } from './auth-provider.js';

const MAX_ROLES = 100;
const MAX_ROLE_NAME = 200;
/** The width of tessera_api_tokens.user_identifier. */
const MAX_USER_IDENTIFIER = 100;
const MAX_LIFETIME_SECONDS = 10 * 365 * 86400;

/** An `authenticate` answer that is neither a refusal nor a usable success: what is wrong with it. */
export interface MalformedAnswer {
  malformed: string;
}

/**
 * Reads what a custom provider's `authenticate` answered. `{errorMessage: "…"}` is a refusal
 * (LAC providers also send `errorMessage: null` with a success, which is fine); anything else
 * must be a complete success, checked field by field, or no token is made.
 */
export function readAnswer(answer: unknown): AuthResult | MalformedAnswer {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    return {
      malformed: `authenticate answered ${answer === null ? 'null' : Array.isArray(answer) ? 'an array' : typeof answer}, not an object`,
    };
  }
  const a = answer as Record<string, unknown>;
  if (a.errorMessage !== undefined && a.errorMessage !== null) {
    if (typeof a.errorMessage !== 'string') return { malformed: 'errorMessage is not a string' };
    return { errorMessage: a.errorMessage.trim() === '' ? 'Login failed.' : a.errorMessage };
  }
  const problem = successProblem(a);
  if (problem) return { malformed: problem };
  const success: AuthSuccess = { roleNames: [...(a.roleNames as string[])], userIdentifier: a.userIdentifier as string };
  if (a.keyExpiration !== undefined && a.keyExpiration !== null) success.keyExpiration = asDate(a.keyExpiration)!;
  else if (a.keyLifetimeSeconds !== undefined && a.keyLifetimeSeconds !== null) success.keyLifetimeSeconds = a.keyLifetimeSeconds as number;
  if (a.userData !== undefined && a.userData !== null) success.userData = { ...(a.userData as AuthSuccess['userData']) };
  if (a.userInfo !== undefined && a.userInfo !== null) success.userInfo = { ...(a.userInfo as AuthSuccess['userInfo']) };
  return success;
}

export function isMalformed(result: AuthResult | MalformedAnswer): result is MalformedAnswer {
  return typeof (result as MalformedAnswer).malformed === 'string';
}

function successProblem(a: Record<string, unknown>): string | undefined {
  const roles = a.roleNames;
  if (!Array.isArray(roles)) return 'roleNames is not an array of role names';
  if (roles.length > MAX_ROLES) return `roleNames holds more than ${MAX_ROLES} roles`;
  // No NUL: PostgreSQL cannot store it (see nul-character.ts), and the token keeps these.
  if (roles.some((r) => typeof r !== 'string' || r === '' || r.length > MAX_ROLE_NAME || r.includes('\u0000'))) {
    return `roleNames must hold non-empty strings of at most ${MAX_ROLE_NAME} characters, without NUL`;
  }
  const id = a.userIdentifier;
  if (typeof id !== 'string' || id === '' || id.length > MAX_USER_IDENTIFIER || id.includes('\u0000')) {
    return `userIdentifier must be a non-empty string of at most ${MAX_USER_IDENTIFIER} characters, without NUL`;
  }
  if (a.keyExpiration !== undefined && a.keyExpiration !== null) {
    if (!asDate(a.keyExpiration)) return 'keyExpiration must be a Date or an ISO 8601 date-time';
  } else if (a.keyLifetimeSeconds !== undefined && a.keyLifetimeSeconds !== null) {
    const s = a.keyLifetimeSeconds;
    if (typeof s !== 'number' || !Number.isInteger(s) || s < 1 || s > MAX_LIFETIME_SECONDS) {
      return `keyLifetimeSeconds must be a whole number of seconds from 1 to ${MAX_LIFETIME_SECONDS}`;
    }
  }
  for (const field of ['userData', 'userInfo'] as const) {
    const value = a[field];
    if (value === undefined || value === null) continue;
    const problem = globalValuesProblem(value);
    if (problem) return `${field}: ${problem.replace(/^globals? /, '')}`;
  }
  return undefined;
}

/** A Date (from any realm) or an ISO 8601 date-time, as a valid Date; undefined otherwise. */
function asDate(value: unknown): Date | undefined {
  let date: Date | undefined;
  if (Object.prototype.toString.call(value) === '[object Date]') date = new Date((value as Date).getTime());
  else if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) date = new Date(value);
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

const CHANGE_RESULTS = new Set(['success', 'failure', 'notSupported']);

/**
 * Reads the answer to the second `authenticate` call, the one with `"enablePasswordChange!": true`:
 * its `changePasswordResult` and `changePasswordMessage`. A provider that ignores the flag
 * (no result in its answer) does not support password changes.
 */
export function readPasswordChange(answer: unknown): PasswordChangeOutcome {
  const a = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
  const result = a.changePasswordResult;
  const message = typeof a.changePasswordMessage === 'string' ? a.changePasswordMessage : undefined;
  if (result === undefined || result === null) {
    if (typeof a.errorMessage === 'string' && a.errorMessage !== '') return { result: 'failure', message: a.errorMessage };
    return { result: 'notSupported', message: 'The authentication provider does not support password changes.' };
  }
  if (typeof result !== 'string' || !CHANGE_RESULTS.has(result)) {
    return { result: 'failure', message: 'The authentication provider gave an unreadable answer to the password change.' };
  }
  return { result: result as PasswordChangeOutcome['result'], message: message ?? `Password change: ${result}.` };
}

/**
 * Reads `getLoginInfo()`'s answer: LAC's `{fields, links}` (a bare array counts as the fields).
 * Entries without a name or display text are left out rather than sent to clients half-made.
 */
export function readLoginInfo(answer: unknown): LoginInfo {
  const a = Array.isArray(answer)
    ? { fields: answer }
    : ((typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>);
  const list = (value: unknown): Record<string, unknown>[] =>
    Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null) : [];
  const fields = list(a.fields)
    .filter((f) => typeof f.name === 'string')
    .map((f) => ({
      name: f.name as string,
      display: typeof f.display === 'string' ? f.display : (f.name as string),
      type: f.type === 'password' ? ('password' as const) : ('text' as const),
      ...(typeof f.description === 'string' ? { description: f.description } : {}),
      ...(typeof f.length === 'number' ? { length: f.length } : {}),
      ...(typeof f.helpURL === 'string' ? { helpURL: f.helpURL } : {}),
    }));
  const links = list(a.links)
    .filter((l) => typeof l.display === 'string' && typeof l.href === 'string')
    .map((l) => ({ display: l.display as string, href: l.href as string }));
  return { fields, links };
}
