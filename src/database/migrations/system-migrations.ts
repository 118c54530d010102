import { CreateTesseraMeta1763800000000 } from './1763800000000-create-tessera-meta.js';
import { CreateAuthTables1763800001000 } from './1763800001000-create-auth-tables.js';
import { LoginAttemptCounters1763800007000 } from './1763800007000-login-attempt-counters.js';
import { TokenDisabledAt1763800012000 } from './1763800012000-token-disabled-at.js';
import { AdminRoles1763800014000 } from './1763800014000-admin-roles.js';
import { LoginLeases1763800015000 } from './1763800015000-login-leases.js';

/** Migrations of Tessera's own tables, in timestamp order. Project migrations come after. */
export const systemMigrations: Function[] = [
  CreateTesseraMeta1763800000000,
  CreateAuthTables1763800001000,
  LoginAttemptCounters1763800007000,
  TokenDisabledAt1763800012000,
  AdminRoles1763800014000,
  LoginLeases1763800015000,
];
