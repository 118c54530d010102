import type { GlobalValues } from '../common/global-values.js';

/** A built-in user created on first start (see `ProjectDefinition.seedUsers`). */
export interface SeedUser {
  login: string;
  /** Plain text in the project definition: for demos and first logins only. */
  password: string;
  roles: string[];
  globals?: GlobalValues;
  email?: string;
}

/** Injection token of the project's seed users. */
export const SEED_USERS = Symbol('SEED_USERS');
