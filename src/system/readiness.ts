import type { Database } from '../database/database.js';

/** The database must answer a trivial query within this long for the service to be ready. */
export const READINESS_TIMEOUT_MS = 1000;

export interface Readiness {
  ready: boolean;
  /** The first check that failed, when one did. */
  failed?: 'database' | 'migrations';
  checks: { database: string; migrations: string };
}

/** `work`'s value when it resolves within `ms` (its error when it fails within them), else `timedOut`. */
async function within<T>(ms: number, work: Promise<T>): Promise<{ value: T } | { timedOut: true }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ timedOut: true }>((resolve) => {
    timer = setTimeout(() => resolve({ timedOut: true }), ms);
  });
  try {
    return await Promise.race([work.then((value) => ({ value })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether the service can serve: the database answers `SELECT 1` within a second, and every
 * migration this build knows is applied. What failed is named in fixed words (the endpoint is
 * public: a driver's message, with its host and port, is for the log, not for the answer).
 */
export async function checkReadiness(database: Database, onError: (check: string, error: unknown) => void): Promise<Readiness> {
  const ping = database.ping();
  let answered;
  try {
    answered = await within(READINESS_TIMEOUT_MS, ping);
  } catch (error) {
    onError('database', error);
    return { ready: false, failed: 'database', checks: { database: 'the database refused the query', migrations: 'not checked' } };
  }
  if ('timedOut' in answered) {
    // The query may still fail later; nobody waits for it, so its error must not go unhandled.
    ping.catch(() => undefined);
    return {
      ready: false,
      failed: 'database',
      checks: { database: `no answer within ${READINESS_TIMEOUT_MS} ms`, migrations: 'not checked' },
    };
  }
  let pending: string[];
  try {
    pending = await database.pendingMigrations();
  } catch (error) {
    onError('migrations', error);
    return { ready: false, failed: 'migrations', checks: { database: 'ok', migrations: 'the migrations table could not be read' } };
  }
  if (pending.length > 0) {
    return { ready: false, failed: 'migrations', checks: { database: 'ok', migrations: `pending: ${pending.join(', ')}` } };
  }
  return { ready: true, checks: { database: 'ok', migrations: 'ok' } };
}
