import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { underBootLock } from './boot-lock.js';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('underBootLock on SQLite', () => {
  let dir: string;
  let sources: DataSource[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-boot-lock-'));
    // Two data sources on one file: as two processes would open it.
    sources = await Promise.all(
      [0, 1].map(() => new DataSource({ type: 'better-sqlite3', database: join(dir, 'db.sqlite') }).initialize()),
    );
  });
  afterEach(async () => {
    await Promise.all(sources.map((s) => s.destroy()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs one step at a time, the second once the first has settled, and logs the wait', async () => {
    const events: string[] = [];
    const logged: string[] = [];
    const logger = { info: (_: object, message: string) => logged.push(message) } as never;
    const step = (name: string, source: DataSource) =>
      underBootLock(
        source,
        'test step',
        async () => {
          events.push(`${name} in`);
          await pause(300);
          events.push(`${name} out`);
        },
        logger,
      );
    const first = step('first', sources[0]!);
    await pause(20);
    await Promise.all([first, step('second', sources[1]!)]);
    expect(events).toEqual(['first in', 'first out', 'second in', 'second out']);
    expect(logged).toEqual([
      'waiting for another instance booting on the same database',
      'another instance finished its boot step; going on',
    ]);
    // The lock file beside the database is its owner's only, like the database.
    expect(statSync(join(dir, 'db.sqlite.boot-lock')).mode & 0o777).toBe(0o600);
  });

  it('releases the lock when the step fails', async () => {
    await expect(underBootLock(sources[0]!, 'failing step', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(underBootLock(sources[1]!, 'next step', async () => 'ran')).resolves.toBe('ran');
  });

  it('needs no lock for an in-memory database', async () => {
    const memory = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    try {
      await expect(underBootLock(memory, 'step', async () => 'ran')).resolves.toBe('ran');
    } finally {
      await memory.destroy();
    }
  });
});
