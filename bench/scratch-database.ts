import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { DatabaseKind } from './sql-client.js';

export interface ScratchDatabase {
  kind: DatabaseKind;
  /** A Tessera DATABASE_URL. */
  url: string;
  /** For the report: server version, e.g. "MariaDB 10.11.19". */
  version: string;
  drop(): Promise<void>;
}

const SAFE_NAME = /^[A-Za-z0-9_]{1,60}$/;

function generatedName(suffix: string): string {
  return `tessera_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}${suffix}`;
}

async function sqliteScratch(): Promise<ScratchDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-bench-'));
  const { default: Database } = await import('better-sqlite3');
  const probe = new Database(':memory:');
  const version = (probe.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  probe.close();
  return {
    kind: 'sqlite',
    url: `sqlite:${join(dir, 'bench.sqlite')}`,
    version: `SQLite ${version}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The server URL names the database to create; without a name one is generated. A name
 * that already exists is refused: the harness drops what it creates, and only that.
 */
function target(serverUrl: string, suffix: string): { name: string; at: (db: string) => string } {
  const url = new URL(serverUrl);
  const given = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const name = given ? `${given}${suffix}` : generatedName(suffix);
  if (!SAFE_NAME.test(name)) throw new Error(`Scratch database name "${name}" must be letters, digits and _.`);
  return {
    name,
    at: (db) => {
      const copy = new URL(serverUrl);
      copy.pathname = `/${db}`;
      return copy.toString();
    },
  };
}

async function mysqlScratch(serverUrl: string, suffix: string): Promise<ScratchDatabase> {
  const { name, at } = target(serverUrl, suffix);
  const adminUrl = at('');
  const admin = await mysql.createConnection(adminUrl);
  try {
    const [existing] = await admin.query('SELECT schema_name FROM information_schema.schemata WHERE schema_name = ?', [name]);
    if ((existing as unknown[]).length > 0) throw new Error(`Database ${name} already exists; give the benchmark a new name.`);
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    const [rows] = await admin.query('SELECT VERSION() AS v');
    const raw = (rows as Array<{ v: string }>)[0]!.v;
    const version = /mariadb/i.test(raw) ? `MariaDB ${raw.replace(/-MariaDB.*$/i, '')}` : `MySQL ${raw}`;
    return {
      kind: 'mysql',
      url: at(name),
      version,
      drop: async () => {
        const c = await mysql.createConnection(adminUrl);
        await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await c.end();
      },
    };
  } finally {
    await admin.end();
  }
}

async function postgresScratch(serverUrl: string, suffix: string): Promise<ScratchDatabase> {
  const { name, at } = target(serverUrl, suffix);
  const adminUrl = at('postgres');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const existing = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (existing.rowCount) throw new Error(`Database ${name} already exists; give the benchmark a new name.`);
    await admin.query(`CREATE DATABASE "${name}"`);
    const version = (await admin.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
    return {
      kind: 'postgres',
      url: at(name),
      version: `PostgreSQL ${version.split(' ')[0]}`,
      drop: async () => {
        const c = new pg.Client({ connectionString: adminUrl });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await c.end();
      },
    };
  } finally {
    await admin.end();
  }
}

/** `sqlite` (a temporary file) or a MySQL/MariaDB/PostgreSQL server URL. `suffix` tells apart several scratch databases of one run. */
export async function createScratchDatabase(spec: string, suffix = ''): Promise<ScratchDatabase> {
  if (spec === 'sqlite') return sqliteScratch();
  if (/^(mysql|mariadb):\/\//.test(spec)) return mysqlScratch(spec.replace(/^mariadb:/, 'mysql:'), suffix);
  if (/^postgres(ql)?:\/\//.test(spec)) return postgresScratch(spec, suffix);
  throw new Error(`--db takes "sqlite", mysql://… or postgres://…; got ${spec}`);
}
