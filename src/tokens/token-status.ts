import type { ApiToken } from './api-token.entity.js';

/** The states of spec §3. */
export type TokenStatus = 'active' | 'disabled' | 'expired';

/**
 * A token's state at `now`. Disabling never touches an expired token (spec §3: it stays
 * expired), so a set `disabled` flag means the token was disabled while still active, and a
 * disabled token stays disabled when its expiration passes.
 */
export function tokenStatus(token: Pick<ApiToken, 'disabled' | 'expiration'>, now: number): TokenStatus {
  if (token.disabled) return 'disabled';
  if (token.expiration !== null && token.expiration <= now) return 'expired';
  return 'active';
}
