import { describe, expect, it } from '@jest/globals';
import { parseOptions } from './options.js';

describe('bench options', () => {
  it('writes RESULTS.md only from a full run of everything', () => {
    expect(parseOptions([]).writeResults).toBe(true);
    expect(parseOptions(['--db', 'mysql://root@127.0.0.1:3306']).writeResults).toBe(true);
    expect(parseOptions(['--quick']).writeResults).toBe(false);
    expect(parseOptions(['--workloads', 'W1']).writeResults).toBe(false);
    expect(parseOptions(['--adapter', 'fastify', '--write-results']).writeResults).toBe(true);
  });

  it('runs SQLite by default and keeps the order of --db', () => {
    expect(parseOptions([]).databases).toEqual(['sqlite']);
    expect(parseOptions(['--db', 'sqlite', '--db', 'postgres://root@127.0.0.1:5432']).databases).toEqual([
      'sqlite',
      'postgres://root@127.0.0.1:5432',
    ]);
  });

  it('measures both adapters and W0 to W8 unless told otherwise, quick or not', () => {
    for (const argv of [[], ['--quick']]) {
      expect(parseOptions(argv).adapters).toEqual(['express', 'fastify']);
      expect(parseOptions(argv).workloads).toEqual(['W0', 'W1', 'W2', 'W3', 'W4', 'W5', 'W6', 'W7', 'W8']);
    }
    expect(parseOptions(['--workloads', 'w0,W1']).workloads).toEqual(['W0', 'W1']);
  });

  it("takes the other contender's environment words and Node.js flags, and nothing else, with --compare-flags", () => {
    expect(parseOptions(['--compare-flags', ' --max-semi-space-size=4  --heap-growing-percent=20']).compareFlags).toEqual({
      env: {},
      flags: ['--max-semi-space-size=4', '--heap-growing-percent=20'],
    });
    expect(parseOptions(['--compare-flags', 'MALLOC_ARENA_MAX=8 --heap-growing-percent=20']).compareFlags).toEqual({
      env: { MALLOC_ARENA_MAX: '8' },
      flags: ['--heap-growing-percent=20'],
    });
    expect(parseOptions([]).compareFlags).toBeUndefined();
    expect(() => parseOptions(['--compare-flags', '--max-semi-space-size=4 dist/src/main.js'])).toThrow(
      /--compare-flags: .*dist\/src\/main.js/,
    );
  });

  it('refuses what it does not know', () => {
    expect(() => parseOptions(['--workloads', 'W9'])).toThrow(/unknown workload/);
    expect(() => parseOptions(['--adapter', 'koa'])).toThrow(/express or fastify/);
  });
});
