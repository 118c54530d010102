import { AdminAccount } from '../admin/admin-account.entity.js';
import { AdminAuditEntry } from '../admin/admin-audit-entry.entity.js';
import { AdminToken } from '../admin/admin-token.entity.js';
import { ApiToken } from '../tokens/api-token.entity.js';
import { User } from '../users/user.entity.js';
import { LoginAttemptCounter } from './login-attempt.entity.js';
import { TesseraMeta } from './tessera-meta.entity.js';

/** Entities of Tessera's own tables (tokens, users, admin, ...). Each feature adds its own here. */
export const systemEntities: Function[] = [TesseraMeta, User, ApiToken, LoginAttemptCounter, AdminAccount, AdminToken, AdminAuditEntry];
