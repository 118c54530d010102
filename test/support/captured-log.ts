import type { Logger } from 'pino';
import { createLogger } from '../../src/observability/logger.js';
import type { LogLevel } from '../../src/config/app-config.js';

/** A logger whose lines a test can read back: pass `logger` to `startTestApp`. */
export interface CapturedLog {
  logger: Logger;
  /** Every line written so far, as written. */
  text(): string;
  /** Every line written so far, parsed. */
  records(): Array<Record<string, unknown>>;
  /** Forgets the lines written so far (e.g. before each test, so one test's lines do not fail the next). */
  clear(): void;
}

/** The service's own logger (same redaction, same format), writing into memory instead of standard output. */
export function capturedLog(level: LogLevel = 'info'): CapturedLog {
  const lines: string[] = [];
  const logger = createLogger(level, { write: (line: string) => void lines.push(line) });
  return {
    logger,
    text: () => lines.join(''),
    records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    clear: () => void lines.splice(0),
  };
}
