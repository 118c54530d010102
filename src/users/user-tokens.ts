import type { DatabaseScope } from '../database/database.js';

/**
 * What the users' admin endpoints need of the tokens module, which provides it as
 * `USER_TOKENS` (tokens follow their users, so the tokens module knows users, not the
 * other way round): a login token must not outlive its user's deactivation, deletion or
 * password reset.
 */
export interface UserTokens {
  /** Disables every active token of the built-in user, in the caller's transaction. */
  disableForUser(login: string, scope: DatabaseScope): Promise<void>;
  /** Forgets cached token rows; called again after a transaction that changed a user has committed. */
  forgetCachedTokens(): void;
}

/** Injection token of `UserTokens`. */
export const USER_TOKENS = Symbol('USER_TOKENS');
