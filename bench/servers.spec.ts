import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { expressBareSpec, rawSpec, startScriptFlags } from './servers.js';

describe('startScriptFlags', () => {
  it('takes the Node.js flags of the start script', () => {
    expect(startScriptFlags('node --max-semi-space-size=4 dist/src/main.js')).toEqual(['--max-semi-space-size=4']);
    expect(startScriptFlags('node dist/src/main.js')).toEqual([]);
  });

  it("reads this checkout's start script", () => {
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
    expect(() => startScriptFlags(scripts.start)).not.toThrow();
  });

  it('refuses a start script it cannot mirror, rather than measuring something else', () => {
    expect(() => startScriptFlags('npm run build && node dist/src/main.js')).toThrow(/start script/);
    expect(() => startScriptFlags('node dist/src/other.js')).toThrow(/start script/);
  });
});

describe('the reference servers (raw, express-bare)', () => {
  const launch = { databaseUrl: 'sqlite:/tmp/x.sqlite', requireToken: true, heartbeatHeaders: { 'cache-control': 'no-store' } };

  it("run as child processes with raw's environment, Tessera's @heartbeat headers included", () => {
    for (const spec of [rawSpec(launch), expressBareSpec(launch)]) {
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
