import { jest } from '@jest/globals';
import { createLogger } from '../../observability/logger.js';
import { DatabaseOutage, OUTAGE_PROBE_MS } from './database-outage.js';

function captured(): { lines: Array<Record<string, unknown>>; outage: (ping: () => Promise<void>) => DatabaseOutage } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger('debug', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { lines, outage: (ping) => new DatabaseOutage(logger, ping) };
}

const lost = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('DatabaseOutage', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('logs the outage once (its stack at debug), counts the refused requests, and says when a ping gets through', async () => {
    const { lines, outage } = captured();
    let up = false;
    const tracker = outage(async () => {
      if (!up) throw lost();
    });
    for (let i = 0; i < 50; i++) tracker.refused(lost(), { requestId: `r${i}`, method: 'GET', path: '/rest/x' });
    await jest.advanceTimersByTimeAsync(3 * OUTAGE_PROBE_MS);
    expect(tracker.lost).toBe(true);
    up = true;
    await jest.advanceTimersByTimeAsync(OUTAGE_PROBE_MS);
    expect(tracker.lost).toBe(false);
    expect(lines.map((l) => [l.level, l.msg, l.code, l.refused])).toEqual([
      [50, 'database unavailable: requests that need it are answered 503 / 5030 until it answers again', 'ECONNREFUSED', undefined],
      [20, 'database unavailable: the error that began the outage', undefined, undefined],
      [40, expect.stringMatching(/^database available again after [\d.]+ s; 50 requests were answered 503 \/ 5030$/), undefined, 50],
    ]);
    expect(lines.filter((l) => JSON.stringify(l).includes('"stack"'))).toHaveLength(1);
    expect(lines[1]!.level).toBe(20);
  });

  it('begins a new outage, with its own count, when the database is lost again', async () => {
    const { lines, outage } = captured();
    const tracker = outage(async () => undefined);
    tracker.refused(lost(), {});
    await jest.advanceTimersByTimeAsync(OUTAGE_PROBE_MS);
    tracker.refused(lost(), {});
    tracker.refused(lost(), {});
    await jest.advanceTimersByTimeAsync(OUTAGE_PROBE_MS);
    expect(lines.filter((l) => l.level === 40).map((l) => l.refused)).toEqual([1, 2]);
    expect(jest.getTimerCount()).toBe(0);
  });
});
