import { describe, expect, it } from '@jest/globals';
import { formatMainTable } from './report.js';
import type { DatabaseResult } from './results.js';
import { summarize } from './summary.js';
import { judgeTargets } from './targets.js';

const run = (rps: number, errors = 0) => ({ rps, p50: 2, p99: 9, requests: rps * 5, errors, non2xx: 0, rssPeak: 100 * 1024 * 1024, cpuMicros: 150 });

function result(tesseraRuns: ReturnType<typeof run>[]): DatabaseResult {
  return {
    database: 'SQLite 3.50',
    kind: 'sqlite',
    servers: ['tessera/fastify', 'raw'],
    judged: 'tessera/fastify',
    workloads: [{
      id: 'W1',
      title: 'GET one customer by key',
      cells: { 'tessera/fastify': summarize(tesseraRuns), raw: summarize([run(10_000), run(12_000), run(11_000)]) },
      notes: {},
    }],
  };
}

describe('bench report', () => {
  it('shows medians and the ratio to raw', () => {
    const table = formatMainTable(result([run(6_000), run(4_000), run(5_000)]));
    expect(table).toContain('| W1 GET one customer by key | tessera/fastify | 5,000 | 2.0 | 9.0 | 0 | 0 | 100 | 150 | 45% |');
  });

  it('marks a run with errors invalid and judges no target from it', () => {
    const bad = result([run(6_000), run(6_000, 3), run(6_000)]);
    expect(formatMainTable(bad)).toContain('INVALID');
    const w1 = judgeTargets([bad]).find((v) => v.target.startsWith('W1'))!;
    expect(w1.met).toBeUndefined();
  });

  it('judges a target met or missed by its ratio', () => {
    const verdicts = judgeTargets([result([run(6_000), run(6_000), run(6_000)])]);
    expect(verdicts.find((v) => v.target.startsWith('W1'))).toMatchObject({ value: '54.5%', met: true });
    expect(verdicts.find((v) => v.target.startsWith('RSS'))).toMatchObject({ value: '100 MB', met: true });
  });
});
