import { randomUUID } from 'node:crypto';
import type { QueryRunner } from 'typeorm';

/** A lease outlives its holder's death by at most this long; the holder renews it a few times within it. */
const LEASE_MS = 30_000;
const RENEW_MS = 5_000;

/** The one row of the lease, in a table of its own: created before any migration has run, so not one of theirs. */
const TABLE = '`tessera_boot_lease`';
/** The database server's clock in milliseconds: the nodes and instances compare one time. */
const NOW_MS = 'CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS UNSIGNED)';

/** Duplicate key (another holder's row is there) or deadlock (Galera's certification let another node's insert win). */
function lostTheRace(error: unknown): boolean {
  const errno = (error as { errno?: number }).errno;
  return errno === 1062 || errno === 1213;
}

/** Whether the server is a node of a Galera cluster, where GET_LOCK locks only the node it runs on. */
export async function isGaleraNode(runner: QueryRunner): Promise<boolean> {
  const rows = (await runner.query("SHOW VARIABLES LIKE 'wsrep_on'")) as Array<{ Value?: string }>;
  return rows[0]?.Value?.toUpperCase() === 'ON';
}

/**
 * The boot lock on a Galera cluster: instances connected to different nodes (through a load
 * balancer) must exclude each other too, and GET_LOCK and row locks hold on one node only.
 * A committed row does hold cluster-wide: of two nodes inserting it at once, certification
 * lets one commit. The holder renews it while it works; a holder that died leaves a row that
 * the others take over once it expired (at most LEASE_MS later).
 */
export async function galeraBootLease(runner: QueryRunner): Promise<{ tryLock(): Promise<boolean>; close(): Promise<void> }> {
  await runner.query(
    `CREATE TABLE IF NOT EXISTS ${TABLE} (\`id\` INT NOT NULL PRIMARY KEY, \`holder\` VARCHAR(64) NOT NULL, \`expires_at\` BIGINT NOT NULL) ENGINE=InnoDB`,
  );
  const holder = randomUUID();
  let renewal: NodeJS.Timeout | undefined;
  return {
    tryLock: async () => {
      try {
        await runner.query(`DELETE FROM ${TABLE} WHERE \`id\` = 1 AND \`expires_at\` < ${NOW_MS}`);
        await runner.query(`INSERT INTO ${TABLE} (\`id\`, \`holder\`, \`expires_at\`) VALUES (1, ?, ${NOW_MS} + ?)`, [holder, LEASE_MS]);
      } catch (error) {
        if (lostTheRace(error)) return false;
        throw error;
      }
      renewal = setInterval(() => {
        runner
          .query(`UPDATE ${TABLE} SET \`expires_at\` = ${NOW_MS} + ? WHERE \`id\` = 1 AND \`holder\` = ?`, [LEASE_MS, holder])
          .catch(() => undefined);
      }, RENEW_MS);
      renewal.unref();
      return true;
    },
    close: async () => {
      clearInterval(renewal);
      if (renewal) await runner.query(`DELETE FROM ${TABLE} WHERE \`id\` = 1 AND \`holder\` = ?`, [holder]);
    },
  };
}
