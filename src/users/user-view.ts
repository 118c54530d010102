import { isoTime } from '../common/clock.js';
import type { GlobalValues } from '../common/global-values.js';
import type { User } from './user.entity.js';

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
