import { pino, type Logger } from 'pino';

/** A logger whose JSON lines a test can read back: pass `logger` to `startTestApp`. */
export interface CapturedLog {
  logger: Logger;
  /** Every line logged so far, parsed. */
  entries(): Array<Record<string, unknown>>;
  clear(): void;
}

export function capturedLog(level: 'info' | 'debug' = 'info'): CapturedLog {
  const lines: string[] = [];
  const logger = pino({ level }, { write: (line: string) => void lines.push(line) });
  return {
    logger,
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    clear: () => void lines.splice(0),
  };
}
