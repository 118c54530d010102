import type { LoggerService } from '@nestjs/common';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogFormat, LogLevel } from '../config/app-config.js';
import { prettyLine } from './pretty-log-line.js';

/**
 * Structured JSON logs, or (`pretty`) one readable line an event for a person at a terminal.
 * Anything that might hold a secret is redacted by path before either is written, as a second
 * line of defence: the code never passes secrets to the logger on purpose.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream, format: LogFormat = 'json'): Logger {
  const options = {
    level,
    base: { service: 'tessera' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'password',
        '*.password',
        'apikey',
        '*.apikey',
        'authorization',
        '*.authorization',
        'new_password',
        'newPassword',
        // A failed query's values (TypeORM's `parameters`, mysql2's `sql` with the values written
        // in) may be a password hash, a token hash or a row the log reader may not see.
        'err.parameters',
        'err.sql',
        'err.driverError.parameters',
        'err.driverError.sql',
      ],
      censor: '[REDACTED]',
    },
  };
  if (format === 'pretty') {
    const out = destination ?? process.stdout;
    return pino(options, { write: (line: string) => void out.write(prettyLine(line)) });
  }
  // Standard output unless told otherwise (tests read the lines back).
  return destination ? pino(options, destination) : pino(options);
}

/** Routes Nest's own log lines into the same JSON stream. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  /** Nest's `log` level is its own boot chatter ("Mapped {/rest/...} route", "dependencies initialized"): debug for Tessera. */
  log(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  /**
   * Nest's ExceptionHandler reports an error that stopped the application being built (a bad
   * rule, a database that cannot be opened): whoever built it reports that error itself (main
   * prints it in plain words and exits), so Nest's copy is debug.
   */
  error(message: unknown, trace?: string, context?: string): void {
    if (context === 'ExceptionHandler') this.logger.debug({ context, trace }, String(message));
    else this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}

/** Injection token of the root pino logger. */
export const LOGGER = Symbol('LOGGER');
