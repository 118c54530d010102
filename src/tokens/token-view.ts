import { isoTime } from '../common/clock.js';
import type { GlobalValues } from '../common/global-values.js';
import type { ApiToken, TokenOrigin } from './api-token.entity.js';
import type { TokenStatus } from './token-status.js';

/** A token as the admin API lists it: never the key, nor its hash. */
export interface TokenView {
  id: number;
  label: string;
  userIdentifier: string | null;
  roles: string[];
  globals: GlobalValues;
  origin: TokenOrigin;
  status: TokenStatus;
  expiration: string | null;
  created: string;
  lastUsed: string | null;
}

export function tokenView(token: ApiToken, status: TokenStatus): TokenView {
  return {
    id: token.id,
    label: token.label,
    userIdentifier: token.userIdentifier,
    roles: token.roles,
    globals: token.globals,
    origin: token.origin,
    status,
    expiration: isoTime(token.expiration),
    created: isoTime(token.createdAt),
    lastUsed: isoTime(token.lastUsedAt),
  };
}
