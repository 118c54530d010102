/** pino's numeric levels, as a person reads them. */
const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** Fields every record has, shown in the line's head or not at all. */
const HEAD_FIELDS = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname']);

function shown(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (value !== null && typeof value === 'object' && 'message' in value && typeof value.message === 'string') {
    const type = 'type' in value && typeof value.type === 'string' ? `${value.type}: ` : '';
    return JSON.stringify(`${type}${value.message}`);
  }
  return JSON.stringify(value);
}

/**
 * One JSON log line (already redacted) as one readable line: `12:00:01.234 INFO  message key=value …`.
 * A line that is not JSON passes as it is.
 */
export function prettyLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = typeof record.time === 'string' ? record.time.slice(11, 23) : '';
  const level = (LEVEL_NAMES[Number(record.level)] ?? String(record.level)).padEnd(5);
  const message = (typeof record.msg === 'string' ? record.msg : JSON.stringify(record.msg ?? '')).replace(/\s*\n\s*/g, ' ');
  const fields = Object.entries(record)
    .filter(([key, value]) => !HEAD_FIELDS.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${shown(value)}`);
  return `${[time, level, message, ...fields].filter((part) => part !== '').join(' ')}\n`;
}
