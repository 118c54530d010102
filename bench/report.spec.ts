import { describe, expect, it } from '@jest/globals';
import { formatMainTable, formatReport, formatTargets } from './report.js';
import { NOT_SERVED, type DatabaseResult, type ScalePair } from './results.js';
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

  describe("issue 31's targets, each on the adapter it names", () => {
    const cells = (byServer: Record<string, number>) =>
      Object.fromEntries(Object.entries(byServer).map(([server, rps]) => [server, summarize([run(rps)])]));
    const servers = ['tessera/express', 'tessera/fastify', 'express-bare', 'raw'];
    const both: DatabaseResult = {
      database: 'SQLite 3.50',
      kind: 'sqlite',
      servers,
      judged: 'tessera/fastify',
      workloads: [
        {
          id: 'W0',
          title: 'GET @heartbeat (the HTTP floor)',
          cells: cells({ 'tessera/express': 3_000, 'tessera/fastify': 6_000, 'express-bare': 5_000, raw: 10_000 }),
          notes: {},
        },
        {
          id: 'W1',
          title: 'GET one customer by key',
          cells: cells({ 'tessera/express': 2_500, 'tessera/fastify': 7_000, 'express-bare': 5_000, raw: 10_000 }),
          notes: {},
        },
        {
          id: 'W3',
          title: 'POST one line item',
          cells: cells({ 'tessera/express': 200, 'tessera/fastify': 400, raw: 1_000 }),
          notes: { 'express-bare': NOT_SERVED },
        },
        {
          id: 'W4',
          title: 'PUT one customer',
          cells: cells({ 'tessera/express': 400, 'tessera/fastify': 500, raw: 1_000 }),
          notes: { 'express-bare': NOT_SERVED },
        },
      ],
    };
    const of31 = (result: DatabaseResult) =>
      judgeTargets([result])
        .filter((v) => v.issue === '31')
        .map((v) => [v.target, v.value, v.met, v.note]);

    it('judges Express on W0 and W1 and Fastify on W1, W4 and W3, with Express against express-bare beside it', () => {
      expect(of31(both)).toEqual([
        [
          'W0 ≥ 40% of raw (HTTP floor, SQLite 3.50, tessera/express)',
          '30.0%',
          false,
          '60.0% of express-bare (express-bare: 50.0% of raw)',
        ],
        ['W1 ≥ 30% of raw (read, SQLite 3.50, tessera/express)', '25.0%', false, '50.0% of express-bare (express-bare: 50.0% of raw)'],
        ['W1 ≥ 65% of raw (read, SQLite 3.50, tessera/fastify)', '70.0%', true, undefined],
        ['W4 ≥ 50% of raw (update, SQLite 3.50, tessera/fastify)', '50.0%', true, undefined],
        ['W3 ≥ 35% of raw (insert through the rules, SQLite 3.50, tessera/fastify)', '40.0%', true, undefined],
      ]);
    });

    it('leaves a target unjudged when its adapter did not run, rather than judging it on the other one', () => {
      const fastifyOnly: DatabaseResult = {
        ...both,
        servers: ['tessera/fastify', 'raw'],
        workloads: both.workloads.map((w) => ({ ...w, cells: { 'tessera/fastify': w.cells['tessera/fastify'], raw: w.cells.raw } })),
      };
      const express = of31(fastifyOnly).filter(([target]) => String(target).includes('tessera/express'));
      expect(express.map(([, value, met, note]) => [value, met, note])).toEqual([
        ['n/a', undefined, 'tessera/express not run'],
        ['n/a', undefined, 'tessera/express not run'],
      ]);
    });

    it('asks RSS < 150 MB of both adapters', () => {
      const heavy = {
        ...both,
        workloads: both.workloads.map((w) => ({
          ...w,
          cells: { ...w.cells, 'tessera/express': { ...w.cells['tessera/express']!, rssPeak: 200 * 1024 * 1024 } },
        })),
      };
      expect(
        judgeTargets([heavy])
          .filter((v) => v.target.startsWith('RSS'))
          .map((v) => [v.issue, v.target, v.value, v.met]),
      ).toEqual([
        ['8, 31', 'RSS < 150 MB during load (SQLite 3.50, tessera/express)', '200 MB', false],
        ['8, 31', 'RSS < 150 MB during load (SQLite 3.50, tessera/fastify)', '100 MB', true],
      ]);
    });

    it('judges W2 at the large size within 1.5× of the small one (issue 31), the insert and W1 within 1.2× (issue 8)', () => {
      const pair = (label: string, smallRps: number, largeRps: number): ScalePair => ({
        label,
        small: '1,000 customers',
        large: '1,000,000 customers',
        smallRps,
        largeRps,
        smallMs: 1,
        largeMs: 1,
        msLabel: 'p50',
        valid: true,
      });
      const scaled: DatabaseResult = {
        ...both,
        scaling: { server: 'tessera/fastify', insert: pair('insert', 100, 100), w1: pair('W1', 100, 90), w2: pair('W2', 150, 100) },
      };
      expect(
        judgeTargets([scaled])
          .filter((v) => v.target.includes('within'))
          .map((v) => [v.issue, v.target.split(':')[0], v.value, v.met]),
      ).toEqual([
        ['8', 'insert', '1.00×', true],
        ['8', 'W1', '1.11×', true],
        ['31', 'W2', '1.50×', true],
      ]);
    });

    it("shows express-bare only where it runs, and Tessera on Express as a share of it in the table's notes", () => {
      const table = formatMainTable(both);
      expect(table).toContain('| W0 GET @heartbeat (the HTTP floor) | express-bare | 5,000 |');
      expect(table).toMatch(
        /\| W1 GET one customer by key \| tessera\/express \| 2,500 .*\| 25% \| 50\.0% of express-bare \(express-bare: 50\.0% of raw\) \|/,
      );
      expect(table).not.toContain('| W3 POST one line item | express-bare');
      expect(table).not.toContain(NOT_SERVED);
    });

    it('sets Tessera beside raw-rules on the line-item workloads, in the W3 targets and in the table, on either adapter', () => {
      const withRules: DatabaseResult = {
        ...both,
        servers: [...servers.slice(0, 3), 'raw-rules', 'raw'],
        workloads: both.workloads.map((w) =>
          w.id === 'W3'
            ? { ...w, cells: { ...w.cells, 'raw-rules': summarize([run(500)]) } }
            : { ...w, notes: { ...w.notes, 'raw-rules': NOT_SERVED } },
        ),
      };
      const w3 = judgeTargets([withRules]).filter((v) => v.target.startsWith('W3'));
      expect(w3.map((v) => [v.issue, v.value, v.note])).toEqual([
        ['8', '40.0%', '80.0% of raw-rules (raw-rules: 50.0% of raw)'],
        ['31', '40.0%', '80.0% of raw-rules (raw-rules: 50.0% of raw)'],
      ]);
      const table = formatMainTable(withRules);
      expect(table).toMatch(/\| W3 POST one line item \| tessera\/express \| 200 .*\| 40\.0% of raw-rules \(raw-rules: 50\.0% of raw\) \|/);
      expect(table).toMatch(/\| W3 POST one line item \| raw-rules \| 500 .*\| 50% \|/);
      // raw-rules runs the line-item workloads only; express-bare is still the reference on W0 and W1.
      expect(table).not.toContain('| W1 GET one customer by key | raw-rules');
      expect(table).toContain('50.0% of express-bare');
      // Without raw-rules in the run (an older saved run), the W3 target has no such note.
      expect(judgeTargets([both]).find((v) => v.target.startsWith('W3 ≥ 35%'))?.note).toBeUndefined();
    });

    it('prints the issue of every target in the targets table and in the report', () => {
      const verdicts = judgeTargets([both]);
      expect(formatTargets(verdicts)).toContain('| 31 | W1 ≥ 65% of raw (read, SQLite 3.50, tessera/fastify) | 70.0% | met |  |');
      const info = {
        date: '2026-01-01T00:00:00.000Z',
        node: 'v22',
        machine: 'test',
        mode: 'quick' as const,
        command: 'npm run bench',
        durationSeconds: 2,
        rounds: 1,
        connections: 32,
      };
      const report = formatReport([{ info, result: both }], verdicts);
      expect(report).toContain('| issue | target | measured | verdict | notes |');
      expect(report).toContain('express-bare');
    });
  });
});
