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
  /**
   * Gives back what this process holds in the database it shares with other instances (its
   * login slots, which would otherwise stay counted until they expire): once every request
   * has finished, before the database closes; and once more, for at most RELEASE_LIMIT_MS,
   * when the grace period runs out first. Never rejects.
   */
  release: () => Promise<void>;
}

/** How long after the grace period the watchdog thread kills a process whose main thread did not exit. */
const WATCHDOG_MARGIN_MS = 1500;
/** How long the exit at the end of the grace period waits for `release`: well before the watchdog. */
const RELEASE_LIMIT_MS = 1000;

/**
 * SIGTERM and SIGINT stop the service: the listener closes, idle keep-alive connections close
 * at once and busy ones as soon as their answer is sent, in-flight requests finish, what the
 * process holds for others is given back, the database closes, and the process exits 0.
 * Whatever is still pending after `graceMs`, it gives back what it can within
 * RELEASE_LIMIT_MS and exits 1: by a timer that holds the process open until it fires (an
 * unref'd one let the process hang on with its listener closed, waiting on whatever never
 * settled), and, should the main thread be stuck, by a watchdog thread.
 *
 * The handlers stay installed: a process started by `npm start` and stopped with a signal to
 * its process group gets the signal twice (once directly, once forwarded by npm). With a
 * one-time handler the second one met Node's default action and killed the process on the
 * spot, in-flight requests and all; now a repeated signal changes nothing.
 */
export function stopOnSignals(parts: ShutdownParts): void {
  const { app, logger, graceMs, release } = parts;
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
      const limit = new Promise((resolve) => setTimeout(resolve, RELEASE_LIMIT_MS));
      void Promise.race([release(), limit]).finally(() => process.exit(1));
    }, graceMs);
    startExitWatchdog(graceMs + WATCHDOG_MARGIN_MS);
    const server = app.getHttpServer() as Server;
    drainConnections(server);
    // The server's own close first: it calls back once every request has finished. Then what this
    // process holds for others is given back, and only then does the application close, and with
    // it the database (TypeOrmModule closes it in Nest's shutdown hooks, which run before any
    // hook of ours could; the adapters' close accepts a server that is closed already).
    new Promise<void>((resolve) => server.close(() => resolve()))
      .then(release)
      .then(() => app.close())
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
