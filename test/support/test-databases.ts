import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { DataSource } from 'typeorm';
import type { DatabaseKind } from '../../src/config/database-url.js';

/** The test environment: which databases beyond SQLite the suites may use. */
export const TEST_MYSQL_URL = process.env.TEST_MYSQL_URL || undefined;
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL || undefined;

export interface ScratchDatabase {
  kind: DatabaseKind;
  url: string;
  drop(): Promise<void>;
}

function scratchName(): string {
  return `tessera_t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Creates an empty database of its own for one test run; `drop` removes it. */
export async function createScratchDatabase(kind: 'sqlite' | 'mysql' | 'postgres'): Promise<ScratchDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-test-'));
    return {
      kind: 'sqlite',
      url: `sqlite:${join(dir, 'test.sqlite')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = scratchName();
  if (kind === 'mysql') {
    const serverUrl = TEST_MYSQL_URL!;
    const admin = await mysql.createConnection(serverUrl);
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await admin.end();
    return {
      kind: 'mysql',
      url: withDatabase(serverUrl, name),
      drop: async () => {
        const c = await mysql.createConnection(serverUrl);
        await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await c.end();
      },
    };
  }
  const serverUrl = TEST_POSTGRES_URL!;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  return {
    kind: 'postgres',
    url: withDatabase(serverUrl, name),
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/** A DataSource of the test's own on a scratch database, for reading rows behind the backs of the service processes it serves. */
export async function inspectorOf(database: ScratchDatabase): Promise<DataSource> {
  const url = database.url;
  if (database.kind === 'sqlite') return new DataSource({ type: 'better-sqlite3', database: url.slice('sqlite:'.length) }).initialize();
  if (database.kind === 'postgres') return new DataSource({ type: 'postgres', url }).initialize();
  return new DataSource({ type: 'mysql', url }).initialize();
}

/**
 * Runs one statement on a scratch database from outside the service, on a connection of its own
 * (the service may be running, stopped or killed), and returns the rows it answers.
 */
export async function queryScratch(database: ScratchDatabase, sql: string): Promise<Array<Record<string, unknown>>> {
  const inspector = await inspectorOf(database);
  try {
    return await inspector.query<Array<Record<string, unknown>>>(sql);
  } finally {
    await inspector.destroy();
  }
}
