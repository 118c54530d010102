import type { DatabaseScope } from '../database/database.js';

/** What an admin change reports for the audit trail, beside its result. */
export interface AuditedChange<T> {
  result: T;
  action: string;
  target: string;
  detail?: Record<string, unknown>;
}

/**
 * Records admin changes: the admin module keeps the trail; the modules whose endpoints change
 * things (users, tokens) take it through `AUDIT_TRAIL`, without importing the admin module.
 */
export interface AuditTrail {
  /**
   * Runs one admin change in a transaction and writes its audit entry in the same transaction:
   * a change is never made without its entry. Slow work (bcrypt) belongs before the call.
   */
  change<T>(username: string, work: (tx: DatabaseScope) => Promise<AuditedChange<T>>): Promise<T>;
}

/** Injection token of the `AuditTrail`. */
export const AUDIT_TRAIL = Symbol('AUDIT_TRAIL');
