import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import type { AbstractHttpAdapter } from '@nestjs/core';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config.js';
import { installFrontDoor } from './front-door.js';
import { hostSettingsWarning } from './host-policy.js';
import type { SecurityHeaders } from './security-headers.js';
import { applyServerTimeouts } from './server-timeouts.js';
import { StaticFiles } from './static-files.js';

/** What the edge of one adapter is built from. */
export interface EdgeParts {
  http: AppConfig['http'];
  logger: Logger;
  /** helmet's headers, recorded once for the application (see `recordSecurityHeaders`). */
  securityHeaders: SecurityHeaders;
}

/**
 * One adapter's part of the edge: the adapter Nest is created on, and what is set on the
 * application once it is (request ids and the request log line, security headers, the body
 * checks and reader, request metrics). Nothing above src/http/ knows which adapter runs.
 */
export interface HttpEdge {
  readonly adapter: AbstractHttpAdapter;
  prepare(app: INestApplication): void;
}

/**
 * What runs on the Node server before either framework sees a request, installed once the
 * application is initialised: the server's timeouts, the console at /admin/ and Swagger UI at
 * `<base>/@docs/ui` (the same on both adapters), and the front door's checks in front of all of it.
 */
export function installServerEdge(server: Server, parts: EdgeParts & { apiBases: readonly string[] }): void {
  const { http, logger, securityHeaders } = parts;
  applyServerTimeouts(server, http);
  new StaticFiles({ apiBases: parts.apiBases, securityHeaders, logger }).install(server);
  installFrontDoor(server, { settings: http, logger, securityHeaders });
  const hostWarning = hostSettingsWarning(http);
  if (hostWarning) logger.warn(hostWarning);
}
