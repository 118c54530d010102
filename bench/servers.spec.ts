import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { expressBareSpec, rawRulesSpec, rawSpec, tesseraSpec } from './servers.js';
import { startScriptWords, startWords } from './start-words.js';

describe('startScriptWords', () => {
  it('takes the environment words and Node.js flags of the start script', () => {
    expect(startScriptWords('node --max-semi-space-size=4 dist/src/main.js')).toEqual({ env: {}, flags: ['--max-semi-space-size=4'] });
    expect(startScriptWords('node dist/src/main.js')).toEqual({ env: {}, flags: [] });
    expect(startScriptWords('MALLOC_ARENA_MAX=2 node --heap-growing-percent=20 dist/src/main.js')).toEqual({
      env: { MALLOC_ARENA_MAX: '2' },
      flags: ['--heap-growing-percent=20'],
    });
  });

  it("reads this checkout's start script; Tessera runs with what a start sets, the bench's own settings over them", () => {
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
    const start = startScriptWords(scripts.start);
    const spec = tesseraSpec({ databaseUrl: 'sqlite:/tmp/x.sqlite', adapter: 'fastify', start });
    expect(spec.nodeArgs).toEqual(start.flags);
    expect(spec.env).toMatchObject({ ...start.env, DATABASE_URL: 'sqlite:/tmp/x.sqlite', HTTP_ADAPTER: 'fastify' });
    const other = tesseraSpec({
      databaseUrl: 'sqlite:/tmp/x.sqlite',
      adapter: 'fastify',
      start: { env: { DATABASE_URL: 'no', X_Y: '1' }, flags: [] },
    });
    expect(other.nodeArgs).toEqual([]);
    expect(other.env).toMatchObject({ DATABASE_URL: 'sqlite:/tmp/x.sqlite', X_Y: '1' });
  });

  it('refuses a start script it cannot mirror, rather than measuring something else', () => {
    expect(() => startScriptWords('npm run build && node dist/src/main.js')).toThrow(/start script/);
    expect(() => startScriptWords('node dist/src/other.js')).toThrow(/start script/);
    expect(() => startScriptWords('node --a dist/src/main.js extra')).toThrow(/start script/);
    expect(() => startScriptWords('MALLOC_ARENA_MAX=2 node lib.js dist/src/main.js')).toThrow(/start script/);
  });
});

describe('startWords', () => {
  it('takes environment words before the flags, and nothing else', () => {
    expect(startWords(['A_B=1', 'C=', '--x=2'])).toEqual({ env: { A_B: '1', C: '' }, flags: ['--x=2'] });
    expect(() => startWords(['--x', 'A=1'])).toThrow(/A=1/);
    expect(() => startWords(['node'])).toThrow(/node/);
  });
});

describe('the reference servers (raw, raw-rules, express-bare)', () => {
  const launch = { databaseUrl: 'sqlite:/tmp/x.sqlite', requireToken: true, heartbeatHeaders: { 'cache-control': 'no-store' } };

  it("run as child processes with raw's environment, Tessera's @heartbeat headers included", () => {
    for (const spec of [rawSpec(launch), rawRulesSpec(launch), expressBareSpec(launch)]) {
      expect(spec.env).toMatchObject({
        DATABASE_URL: 'sqlite:/tmp/x.sqlite',
        RAW_REQUIRE_TOKEN: '1',
        BENCH_HEARTBEAT_HEADERS: '{"cache-control":"no-store"}',
        BCRYPT_COST: '10',
      });
      expect(spec.env.CHECKSUM_SECRET).toMatch(/^[0-9a-f]{64}$/);
      expect(spec.readyPath).toBe('/rest/default/demo/v1/@heartbeat');
    }
    // One secret for every server of a run, so raw computes Tessera's checksums.
    expect(rawSpec(launch).env.CHECKSUM_SECRET).toBe(expressBareSpec(launch).env.CHECKSUM_SECRET);
  });

  it('start their own scripts under their own names', () => {
    expect(expressBareSpec(launch)).toMatchObject({
      name: 'express-bare',
      script: expect.stringMatching(/dist\/bench\/raw\/express-bare\.js$/),
    });
    expect(rawSpec(launch)).toMatchObject({ name: 'raw', script: expect.stringMatching(/dist\/bench\/raw\/server\.js$/) });
    expect(rawSpec(launch).env).not.toHaveProperty('RAW_LINEITEM_RULES');
    // raw-rules is raw's own server, told to write what the rules write for a line item.
    expect(rawRulesSpec(launch)).toMatchObject({
      name: 'raw-rules',
      script: rawSpec(launch).script,
      env: { RAW_LINEITEM_RULES: '1' },
    });
    expect(rawSpec({ ...launch, loopDelayFile: '/tmp/loop.json' })).toMatchObject({
      name: 'raw+loop-probe',
      env: { BENCH_LOOP_DELAY_FILE: '/tmp/loop.json' },
    });
  });

  it('send no copied headers when the harness gives none, and skip the token check only when told', () => {
    const spec = expressBareSpec({ databaseUrl: 'sqlite:x', requireToken: false });
    expect(spec.env).not.toHaveProperty('BENCH_HEARTBEAT_HEADERS');
    expect(spec.env.RAW_REQUIRE_TOKEN).toBe('0');
  });
});
