import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { startScriptFlags } from './servers.js';

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
