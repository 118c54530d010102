import { prettyLine } from './pretty-log-line.js';

describe('prettyLine', () => {
  it('writes one readable line: time, level, message, then the other fields', () => {
    const json = JSON.stringify({
      level: 40,
      time: '2026-01-02T03:04:05.678Z',
      service: 'tessera',
      msg: 'slow\nquery',
      table: 'orders',
      ms: 12,
    });
    expect(prettyLine(json)).toBe('03:04:05.678 WARN  slow query table=orders ms=12\n');
  });

  it('quotes strings with spaces, shows errors by type and message, and passes non-JSON through', () => {
    const json = JSON.stringify({
      level: 50,
      time: '2026-01-02T03:04:05.678Z',
      msg: 'failed',
      note: 'two words',
      err: { type: 'Error', message: 'boom', stack: 'at x' },
    });
    expect(prettyLine(json)).toBe('03:04:05.678 ERROR failed note="two words" err="Error: boom"\n');
    expect(prettyLine('not json\n')).toBe('not json\n');
  });
});
