import type { EntityManager } from 'typeorm';
import { Database } from '../../src/database/database.js';
import type { TestApp } from './test-app.js';

/** Long enough for a login (one bcrypt at the test cost) to finish when nothing holds it back. */
const SETTLE_MS = 1000;

class RolledBack extends Error {}

/**
 * Sends `request` while another write transaction is open, taken through the Database facade as a
 * resource write takes it, with `work` done in it; then rolls that transaction back and answers
 * the request's result. On SQLite (one connection) anything the request reads or writes outside
 * the gate would see `work` and be rolled back with it. The transaction stays open until the
 * request has answered or SETTLE_MS has passed: a request that waits for the gate answers after.
 */
export async function duringRolledBackWrite<T>(
  t: TestApp,
  request: () => PromiseLike<T>,
  work: (manager: EntityManager) => Promise<unknown> = async () => undefined,
): Promise<T> {
  let opened!: () => void;
  let release!: () => void;
  const isOpen = new Promise<void>((resolve) => (opened = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const transaction = t.app.get(Database).transaction((tx) =>
    tx.write(async ({ manager }) => {
      await work(manager);
      opened();
      await released;
      throw new RolledBack();
    }),
  );
  await Promise.race([isOpen, transaction]);
  const answer = Promise.resolve(request());
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([answer.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, SETTLE_MS)))]);
  clearTimeout(timer);
  release();
  await transaction.catch((error: unknown) => {
    if (!(error instanceof RolledBack)) throw error;
  });
  return answer;
}
