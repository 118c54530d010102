/**
 * The contract of a Tessera authentication provider, for authors of modules in this folder.
 * Reference it from JavaScript with JSDoc, e.g.
 *
 *     // @ts-check
 *     /** @type {import('./types.js').ProviderFactory} *\/
 *     export default function create() { ... }
 *
 * It follows CA Live API Creator's JavaScript auth providers, so those port with little change
 * (see README.md, "Porting a LAC provider").
 */

/** A JSON scalar: what a global value (`@{name}` in role row filters) or a `userInfo` value may be. */
export type GlobalValue = string | number | boolean | null;

/** The provider's settings: `<name>.config.json` overlaid key by key by the JSON object in AUTH_PROVIDER_CONFIG. */
export type ProviderConfig = Record<string, unknown>;

/**
 * The body of the login request, exactly as the client sent it: `username` and `password`
 * for most clients, or whatever credential fields the provider asks for (`id_token`, ...).
 * On the second call made for a password change (`?enablePasswordChange!`), it also holds
 * `"enablePasswordChange!": true` and the new password (`new_password` or `newPassword`).
 */
export type LoginPayload = Record<string, unknown> & {
  username?: string;
  password?: string;
  'enablePasswordChange!'?: true;
};

/** Writes to Tessera's log, tagged with the provider. The request's credentials and the provider's secrets are blanked out. */
export interface ProviderLogger {
  debug(message: string, details?: unknown): void;
  info(message: string, details?: unknown): void;
  warn(message: string, details?: unknown): void;
  error(message: string, details?: unknown): void;
}

/** What each call gets besides the payload. A provider never gets the database. */
export interface ProviderContext {
  /** The client's address (X-Forwarded-For only when Tessera runs with TRUST_PROXY). */
  clientAddress: string;
  logger: ProviderLogger;
  /** The global fetch, with AUTH_PROVIDER_TIMEOUT_MS as its default timeout. */
  fetch: typeof fetch;
  /** The settings `configure` received. */
  config: Readonly<ProviderConfig>;
}

/** A refused login. The message goes to the client (401 / 4013): say no more than it needs. */
export interface AuthFailure {
  errorMessage: string;
}

/** An accepted login: what the new auth token carries. */
export interface AuthSuccess {
  /** Absent or null (LAC providers send null). A string makes the answer a refusal. */
  errorMessage?: null;
  /** The token's roles (strings); at most 100. */
  roleNames: string[];
  /** Who logged in (at most 100 characters): shown in token lists, the token's label is `Temp key for <userIdentifier>`. */
  userIdentifier: string;
  /** The token's lifetime; TOKEN_LIFETIME_SECONDS when absent. Ignored when `keyExpiration` is given. */
  keyLifetimeSeconds?: number;
  /** A fixed expiry: a Date or an ISO 8601 date-time. */
  keyExpiration?: Date | string;
  /** The token's global values (`@{name}` in row filters): names are identifiers, values JSON scalars. */
  userData?: Record<string, GlobalValue>;
  /** Extra fields of the login answer, repeated on re-validation, e.g. `email`, `lastLoginTs`, `lastLoginIP`. */
  userInfo?: Record<string, GlobalValue>;
  /** Only on the password-change call: what happened. Absent means the provider does not support it (`notSupported`). */
  changePasswordResult?: 'success' | 'failure' | 'notSupported';
  /** Says what happened; for `failure`, why. */
  changePasswordMessage?: string;
}

export type AuthAnswer = AuthFailure | AuthSuccess;

/** One field of the login form, served at `@login_info`. */
export interface LoginField {
  name: string;
  display: string;
  type: 'text' | 'password';
  description?: string;
  length?: number;
  helpURL?: string;
}

export interface LoginLink {
  display: string;
  href: string;
}

/** The login form a client should show. */
export interface LoginInfo {
  fields: LoginField[];
  links?: LoginLink[];
}

/**
 * The settings a provider accepts, shown to operators (GET /admin/v1/provider). LAC's shape:
 * `current` values and `fields` describing each setting. Tessera blanks secrets (settings
 * named like secret/password/token/key, and everything set through AUTH_PROVIDER_CONFIG),
 * but it is better not to return them at all.
 */
export interface ConfigInfo {
  current?: Record<string, unknown>;
  fields?: Array<{ name: string; display: string; type?: string; description?: string; length?: number; helpURL?: string }>;
  links?: LoginLink[];
  [other: string]: unknown;
}

/**
 * A provider. Only `authenticate` is required; every function may return a value or a
 * promise, and each call must finish within AUTH_PROVIDER_TIMEOUT_MS (default 5 s).
 */
export interface AuthProvider {
  /** Called once at boot with the merged settings. Throw to stop the boot with your message (say what to fix). */
  configure?(config: ProviderConfig): void | Promise<void>;
  /** Checks a login. Answer `{errorMessage}` to refuse; throwing is a provider failure (401 / 4013, logged). */
  authenticate(payload: LoginPayload, context: ProviderContext): AuthAnswer | Promise<AuthAnswer>;
  /** The login form (public, at `@login_info`). Absent: `username` and `password`. */
  getLoginInfo?(): LoginInfo | LoginField[] | Promise<LoginInfo | LoginField[]>;
  /** The settings, for operators. */
  getConfigInfo?(): ConfigInfo | Promise<ConfigInfo>;
}

/** What a module may export instead of the provider object: a function (LAC's `create`) that makes it, called once at boot. */
export type ProviderFactory = () => AuthProvider | Promise<AuthProvider>;
