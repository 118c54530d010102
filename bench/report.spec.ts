import { describe, expect, it } from '@jest/globals';
import { formatMainTable } from './report.js';
import type { DatabaseResult } from './results.js';
import { summarize } from './summary.js';
import { judgeTargets } from './targets.js';

const run = (rps: number, errors = 0) => ({
  rps,
  p50: 2,
  p99: 9,
  requests: rps * 5,
  errors,
  non2xx: 0,
  rssPeak: 100 * 1024 * 1024,
  cpuMicros: 150,
});

function result(tesseraRuns: ReturnType<typeof run>[]): DatabaseResult {
  return {
    database: 'SQLite 3.50',
    kind: 'sqlite',
    servers: ['tessera/fastify', 'raw'],
    judged: 'tessera/fastify',
    workloads: [
      {
        id: 'W1',
        title: 'GET one customer by key',
        cells: { 'tessera/fastify': summarize(tesseraRuns), raw: summarize([run(10_000), run(12_000), run(11_000)]) },
        notes: {},
      },
    ],
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

  it('judges the hot-parent workloads against W3 of the same server on MariaDB and PostgreSQL, and by failed requests everywhere', () => {
    const cell = (rps: number, errors = 0) => ({ 'tessera/fastify': summarize([run(rps, errors)]) });
    const mariadb: DatabaseResult = {
      database: 'MariaDB 10.11',
      kind: 'mysql',
      servers: ['tessera/fastify'],
      judged: 'tessera/fastify',
      workloads: [
        { id: 'W3', title: 'insert', cells: cell(1_000), notes: {} },
        { id: 'W7', title: 'hot order', cells: cell(600), notes: {} },
        { id: 'W8', title: 'hot customer', cells: cell(400), notes: {} },
      ],
    };
    const verdicts = judgeTargets([mariadb]).filter((v) => v.target.includes('hot parent'));
    expect(verdicts.map((v) => [v.target.split(' (')[0], v.value, v.met])).toEqual([
      ['W7 without failed requests', '0 failed', true],
      ['W7 ≥ 50% of W3', '60.0%', true],
      ['W8 without failed requests', '0 failed', true],
      ['W8 ≥ 50% of W3', '40.0%', false],
    ]);
    const sqlite = {
      ...mariadb,
      kind: 'sqlite' as const,
      workloads: [{ id: 'W7' as const, title: 'hot order', cells: cell(600, 2), notes: {} }],
    };
    expect(
      judgeTargets([sqlite])
        .filter((v) => v.target.includes('hot parent'))
        .map((v) => [v.value, v.met]),
    ).toEqual([
      ['2 failed', false],
      ['n/a', undefined],
    ]);
  });
});
