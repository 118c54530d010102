import type { AdminRole } from '../admin-api/admin-principal.js';
import { isoTime } from '../common/clock.js';
import type { AdminAccount } from './admin-account.entity.js';

/** An admin account as the admin API shows it: never the password hash. */
export interface AdminAccountView {
  username: string;
  role: AdminRole;
  created: string;
}

export function adminAccountView(account: AdminAccount): AdminAccountView {
  return { username: account.username, role: account.role, created: isoTime(account.createdAt) };
}
