import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import type { Logger } from 'pino';
import { startExitWatchdog } from './exit-watchdog.js';
import { drainConnections } from './front-door.js';

export interface ShutdownParts {
  app: INestApplication;
  logger: Logger;
  /** SHUTDOWN_GRACE_MS: how long in-flight requests may take. */
  graceMs: number;
}

/** How long after the grace period the watchdog thread kills a process whose main thread did not exit. */
const WATCHDOG_MARGIN_MS = 1500;

/**
 * SIGTERM and SIGINT stop the service: the listener closes, idle keep-alive connections close
 * at once and busy ones as soon as their answer is sent, in-flight requests finish, the
 * database closes, and the process exits 0. Whatever is still pending after `graceMs`, it
 * exits 1: by a timer that holds the process open until it fires (an unref'd one let the
 * process hang on with its listener closed, waiting on whatever never settled), and, should
 * the main thread be stuck, by a watchdog thread.
 *
 * The handlers stay installed: a process started by `npm start` and stopped with a signal to
 * its process group gets the signal twice (once directly, once forwarded by npm). With a
 * one-time handler the second one met Node's default action and killed the process on the
 * spot, in-flight requests and all; now a repeated signal changes nothing.
 */
export function stopOnSignals(parts: ShutdownParts): void {
  const { app, logger, graceMs } = parts;
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      logger.info({ signal }, 'already shutting down');
      return;
    }
    stopping = true;
    logger.info({ signal, graceMs }, 'shutting down: finishing in-flight requests');
    setTimeout(() => {
      logger.warn('shutdown grace period over; exiting');
      process.exit(1);
    }, graceMs);
    startExitWatchdog(graceMs + WATCHDOG_MARGIN_MS);
    drainConnections(app.getHttpServer() as Server);
    app
      // Closing the application closes the database too (TypeOrmModule), once every request has finished.
      .close()
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
