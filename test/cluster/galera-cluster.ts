import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';

const run = promisify(execFile);
const SCRIPT = join(process.cwd(), 'scripts', 'cluster', 'cluster.sh');

/** What scripts/cluster/cluster.sh starts: three Galera nodes and HAProxy, on loopback. */
export interface GaleraCluster {
  /** mysql:// URL of node 1, 2 or 3 (database `tessera`). */
  nodeUrl(node: 1 | 2 | 3): string;
  /** mysql:// URL of HAProxy, which balances the nodes that are Synced. */
  haproxyUrl: string;
  /** kill -9 of one node's server (a crash). */
  kill(node: 1 | 2 | 3): Promise<void>;
  /** A global status variable of a running node, as text. */
  status(node: 1 | 2 | 3, name: string): Promise<string>;
  stop(): Promise<void>;
}

/** Why the cluster cannot run here (a missing package, not root), or undefined when it can. */
export function clusterUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'not root (the nodes run as the mysql user)';
  const check = spawnSync(SCRIPT, ['check'], { encoding: 'utf8' });
  return check.status === 0 ? undefined : check.stdout.trim() || check.stderr.trim();
}

/** Starts the cluster in `dir` (its own folder, removed by stop) and resolves once all three nodes are Synced and HAProxy is up. */
export async function startGaleraCluster(dir: string): Promise<GaleraCluster> {
  const env = { ...process.env, CLUSTER_DIR: dir };
  const script = (...args: string[]) => run(SCRIPT, args, { env, timeout: 240_000 });
  try {
    await script('start');
  } catch (error) {
    await script('stop').catch(() => undefined);
    throw error;
  }
  // The script's ports, shifted as it shifts them (CLUSTER_PORT_OFFSET).
  const base = 3410 + Number(process.env.CLUSTER_PORT_OFFSET ?? 0);
  const url = (port: number) => `mysql://tessera:tessera@127.0.0.1:${port}/tessera`;
  return {
    nodeUrl: (node) => url(base + node),
    haproxyUrl: url(base),
    kill: async (node) => {
      await script('kill', String(node));
    },
    status: async (node, name) => {
      const c = await mysql.createConnection(url(base + node));
      try {
        const [rows] = await c.query('SHOW GLOBAL STATUS LIKE ?', [name]);
        return (rows as Array<{ Value: string }>)[0]?.Value ?? '';
      } finally {
        await c.end();
      }
    },
    stop: async () => {
      await script('stop');
    },
  };
}
