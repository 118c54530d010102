import type { ApiToken, TokenOrigin } from '../tokens/api-token.entity.js';
import type { TokenStatus } from '../tokens/token-status.js';
import type { User } from '../users/user.entity.js';
import type { ApiSettings } from '../common/api-settings.js';
import { isoTime } from '../common/clock.js';
import type { GlobalValues } from '../common/global-values.js';

/** A page of an admin list. */
export interface Page<T> {
  items: T[];
  offset: number;
  pagesize: number;
  total: number;
}

/** `?offset&pagesize` with the API's page-size default and cap. */
export function pageWindow(query: { offset?: number; pagesize?: number }, settings: ApiSettings): { offset: number; pagesize: number } {
  return { offset: query.offset ?? 0, pagesize: Math.min(query.pagesize ?? settings.pageSizeDefault, settings.pageSizeMax) };
}

/** A user as the admin API shows it: never the password hash. */
export interface UserView {
  login: string;
  roles: string[];
  globals: GlobalValues;
  email: string | null;
  keyLifetimeSeconds: number | null;
  active: boolean;
  lastLoginTs: string | null;
  lastLoginIP: string | null;
  created: string;
  updated: string;
}

export function userView(user: User): UserView {
  return {
    login: user.login,
    roles: user.roles,
    globals: user.globals,
    email: user.email,
    keyLifetimeSeconds: user.keyLifetimeSeconds,
    active: user.active,
    lastLoginTs: isoTime(user.lastLoginAt),
    lastLoginIP: user.lastLoginIp,
    created: isoTime(user.createdAt),
    updated: isoTime(user.updatedAt),
  };
}

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
