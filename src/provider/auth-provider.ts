import type { LoginField, LoginLink } from '../../providers/types.js';
import type { GlobalValue, GlobalValues } from '../common/global-values.js';

/**
 * The body of a login request as the client sent it. Built-in providers get string
 * `username` and `password` (the request is refused earlier otherwise); a custom provider
 * gets whatever credential fields its clients send, such as `id_token`.
 */
export type LoginPayload = Record<string, unknown> & { username?: string; password?: string };

/** Facts about the login request that a provider may use. */
export interface AuthContext {
  /** The client's address (X-Forwarded-For only with TRUST_PROXY). */
  clientAddress: string;
  /** True when the request carries `?enablePasswordChange!` (spec §4.4). */
  enablePasswordChange: boolean;
}

/** A refused login. The message is shown to the client: it must not tell which part was wrong. */
export interface AuthFailure {
  errorMessage: string;
}

/** An accepted login: what the new token will carry. */
export interface AuthSuccess {
  /** Roles of the new token. */
  roleNames: string[];
  /** The token's user identifier, shown in token lists and usable in row filters. */
  userIdentifier: string;
  /** Token lifetime; the configured default when absent. Ignored when `keyExpiration` is given. */
  keyLifetimeSeconds?: number;
  /** A fixed expiry for the token. */
  keyExpiration?: Date;
  /** Global values of the token (`@{name}` in row filters). */
  userData?: GlobalValues;
  /** Extras added to the login response and repeated on re-validation, e.g. lastLoginTs, lastLoginIP, email. */
  userInfo?: Record<string, GlobalValue>;
}

export type AuthResult = AuthFailure | AuthSuccess;

/** The answer to a password change; a provider without `changePassword` is `notSupported` without being asked. */
export interface PasswordChangeOutcome {
  result: 'success' | 'failure' | 'notSupported';
  /** Says what happened; for `failure`, the reason (too short, same as the current one, ...). */
  message: string;
}

/** The fields and links of the login form are the ones custom providers describe (providers/types.d.ts). */
export type { LoginField, LoginLink } from '../../providers/types.js';

/** What `@login_info` answers: the login form a client should show. */
export interface LoginInfo {
  fields: LoginField[];
  links: LoginLink[];
}

/** What the admin API tells operators about the active provider. Never secret values. */
export interface ProviderDescription {
  name: string;
  kind: 'built-in' | 'custom';
  /** The module, relative to the project root; null for built-in providers. */
  file: string | null;
  /** The provider's own `getConfigInfo()` answer with secrets blanked; null when it has none. */
  configInfo: unknown;
}

/**
 * An authentication provider: checks credentials at `@authentication` and says which roles
 * and values the new token gets (spec §5.6). The built-in (`default`) and `none` providers
 * implement it; a custom JavaScript provider from the providers folder is adapted to it by
 * `CustomAuthProvider`.
 */
export interface AuthProvider {
  /** The AUTH_PROVIDER name that selects this provider. */
  readonly name: string;

  /**
   * `built-in`: logins are `{username, password}` and tokens belong to built-in users.
   * `custom`: any credential fields; built-in users are never consulted (spec §5.6).
   */
  readonly kind: 'built-in' | 'custom';

  /** Checks a login. Never throws for bad credentials: answers an `AuthFailure`. */
  authenticate(payload: LoginPayload, context: AuthContext): Promise<AuthResult>;

  /**
   * Changes the password of the user who just logged in with `payload` (spec §4.4). The new
   * password is `payload.new_password` or `payload.newPassword`. Absent: `notSupported`.
   */
  changePassword?(payload: LoginPayload, login: AuthSuccess, context: AuthContext): Promise<PasswordChangeOutcome>;

  /** The login form, for `@login_info`. */
  loginInfo(): Promise<LoginInfo>;

  /** For the admin API. */
  describe(): Promise<ProviderDescription>;
}

/** Injection token of the configured `AuthProvider`. */
export const AUTH_PROVIDER = Symbol('AUTH_PROVIDER');

export function isAuthFailure(result: AuthResult): result is AuthFailure {
  return typeof (result as AuthFailure).errorMessage === 'string';
}

/** The admin API's view of a built-in provider: nothing to configure, no file. */
export function builtInDescription(name: string): Promise<ProviderDescription> {
  return Promise.resolve({ name, kind: 'built-in', file: null, configInfo: null });
}
