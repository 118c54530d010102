/**
 * Builds the Nest application on the configured HTTP adapter. This is the only file that
 * knows Express or Fastify: body parsing, body limits, security headers and trust-proxy are
 * wired here for each adapter, so everything else (controllers, guards, filters) stays
 * adapter-agnostic. Errors raised while reading a body reach Nest's exception handler, and so
 * the one exception filter, on both adapters.
 */
import type { IncomingMessage, Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DynamicModule, INestApplication, NestApplicationOptions } from '@nestjs/common';
import type { AbstractHttpAdapter } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import type { FastifyReply, FastifyRequest, RouteHandlerMethod, RouteOptions } from 'fastify';
import type { Logger } from 'pino';
import { AppModule, type AppModuleOptions } from './app.module.js';
import { ApiError } from './common/api-error.js';
import { ApiSettings } from './common/api-settings.js';
import { ErrorCode } from './common/error-codes.js';
import { announcedBodyTooLarge, bodyEncodingProblem } from './common/body-encoding.js';
import { parseJsonBytes, readsAsJson, untypedBodyAllowed } from './common/json-body.js';
import { PinoNestLogger } from './common/logger.js';
import { Metrics } from './common/metrics.js';
import { METRICS_PATH, PrometheusMetrics } from './common/prometheus-metrics.js';
import { UNMATCHED_ROUTE } from './common/request-metrics.js';
import { nulInUrl } from './common/nul-character.js';
import { sendErrorResponse } from './common/error-response.js';
import { installFrontDoor } from './common/front-door.js';
import { hostSettingsWarning } from './common/host-policy.js';
import { recordSecurityHeaders } from './common/security-headers.js';
import { applyServerTimeouts } from './common/server-timeouts.js';
import { StaticFiles } from './system/static-files.js';
import { trackRequest } from './common/request-context.js';
import { Database } from './database/database.js';
import { seedProjectOnce } from './database/seed-project.js';

export type AppParts = AppModuleOptions;

/**
 * Makes the Nest application of a module on an adapter: `NestFactory.create` for the service;
 * tests compile it with `Test.createTestingModule` (and its overrides) first.
 */
export type AppFactory = (
  module: DynamicModule,
  adapter: AbstractHttpAdapter,
  options: NestApplicationOptions,
) => Promise<INestApplication>;

const nestFactory: AppFactory = (module, adapter, options) => NestFactory.create(module, adapter, options);

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** A body is present when the client announced one. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Whether Express reads the body as JSON: one with a JSON type, or none on a method that takes a body (the
 * body of a DELETE or GET without Content-Type stays unread, as on Fastify, whose routes for them have no
 * parser check).
 */
function expressReadsAsJson(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  return type === undefined ? BODY_METHODS.has(req.method ?? '') : readsAsJson(type);
}

/** What decides, before any of a body is read, whether it is refused. */
interface BodyRules {
  limitBytes: number;
  /** CORS_ORIGINS, whose pages may send a body without Content-Type (see `untypedBodyAllowed`). */
  corsOrigins: ReadonlySet<string>;
}

function bodyRulesOf(http: { bodyLimitBytes: number; corsOrigins: readonly string[] }): BodyRules {
  return { limitBytes: http.bodyLimitBytes, corsOrigins: new Set(http.corsOrigins) };
}

/** Why a request's body is refused before any of it is read, or undefined. */
function bodyRefusal(req: IncomingMessage, rules: BodyRules): ApiError | undefined {
  if (!BODY_METHODS.has(req.method ?? '') || !hasBody(req)) return undefined;
  const type = req.headers['content-type'];
  if (!readsAsJson(type)) {
    return new ApiError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'The request body must be application/json.');
  }
  if (type === undefined && !untypedBodyAllowed(req.headers, rules.corsOrigins)) {
    return new ApiError(
      ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      'A body without Content-Type is read as JSON only from clients other than browsers on another site: send Content-Type: application/json.',
    );
  }
  return bodyEncodingProblem(req) ?? announcedBodyTooLarge(req, rules.limitBytes);
}

async function createExpressApp(parts: AppModuleOptions, build: AppFactory): Promise<INestApplication> {
  const { config, logger } = parts;
  // Each adapter's framework is loaded only when it is the one configured: the other one would
  // take about 8 MB of memory (and its modules' load time) for nothing.
  const [{ ExpressAdapter }, { default: express }] = await Promise.all([import('@nestjs/platform-express'), import('express')]);
  const app = (await build(AppModule.forRoot(parts), new ExpressAdapter(), appOptions(logger))) as NestExpressApplication;
  app.disable('x-powered-by');
  // Neither adapter makes ETags of its own (Express hashed every body, errors included), nor answers 304 by
  // itself: Express's res.send() would check req.fresh whenever an ETag is set, and call any GET with
  // If-None-Match: * fresh. The single-object GET answers conditional requests itself, the same on both.
  app.set('etag', false);
  Object.defineProperty(app.getHttpAdapter().getInstance().request, 'fresh', { configurable: true, get: () => false });
  app.set('trust proxy', config.http.trustProxy);
  app.set('query parser', 'simple');
  // Only when enabled: with metrics off, requests pay nothing for them.
  const metrics = app.get(Metrics);
  if (metrics instanceof PrometheusMetrics) app.use(expressRequestMetrics(metrics));
  const securityHeaders = recordSecurityHeaders();
  const bodyRules = bodyRulesOf(config.http);
  app.use((req: Request, res: Response, next: NextFunction) => {
    trackRequest(logger, req, res);
    securityHeaders.applyTo(res);
    next(nulInUrl(req.url) ?? bodyRefusal(req, bodyRules));
  });
  // The bytes, checked and decoded below as on Fastify: express.text() would drop a byte-order mark itself (iconv-lite),
  // so a body with two would be read differently by the two adapters, and would put U+FFFD for bytes that are not UTF-8.
  app.use(express.raw({ type: expressReadsAsJson, limit: config.http.bodyLimitBytes }));
  app.use((req: Request, _res: Response, next: NextFunction) => {
    try {
      req.body = Buffer.isBuffer(req.body) ? parseJsonBytes(req.body) : undefined;
      next();
    } catch (error) {
      next(error);
    }
  });
  return app;
}

async function createFastifyApp(parts: AppModuleOptions, build: AppFactory): Promise<INestApplication> {
  const { config, logger } = parts;
  const { FastifyAdapter } = await import('@nestjs/platform-fastify');
  const adapter = new FastifyAdapter({
    trustProxy: config.http.trustProxy,
    bodyLimit: config.http.bodyLimitBytes,
    // Nest owns routing; Fastify's defaults here would differ from Express's (which ignores
    // trailing slashes and the case of fixed path segments). A key may be as
    // long as the URL may (Express has no limit of its own; Fastify's default is 100 characters).
    routerOptions: { ignoreTrailingSlash: true, caseSensitive: false, maxParamLength: config.http.maxUrlBytes },
    // While draining, answer the last requests on open connections as Express does (with
    // Connection: close, see drainConnections), not with Fastify's own 503 body.
    return503OnClosing: false,
    // The front door refuses malformed URLs first; should Fastify's router still find one, it
    // answers with the envelope too, not with Fastify's own JSON echoing the URL.
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => {
      trackRequest(logger, request.raw, reply.raw);
      const refusal = error instanceof ApiError ? error : new ApiError(ErrorCode.BAD_REQUEST, 'The URL is not valid.');
      sendErrorResponse(reply.raw, refusal, frontDoorHeaders);
    },
  });
  // Nest's not-found handler checks the body first too, as Express does (its body reader runs before routing).
  adapter.setNotFoundHandler = (handler: RouteHandlerMethod) =>
    adapter.getInstance().setNotFoundHandler({ preValidation: refuseUnreadableBody }, handler);
  const app = (await build(AppModule.forRoot(parts), adapter, appOptions(logger))) as NestFastifyApplication;
  const fastify = app.getHttpAdapter().getInstance();
  const metrics = app.get(Metrics);
  if (metrics instanceof PrometheusMetrics) {
    fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      // The route's pattern as Nest registered it (the same string Express names), never the URL.
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
      if (route !== METRICS_PATH) metrics.record(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }
  // The same helmet() headers as the Express app (not @fastify/helmet, which builds the whole
  // middleware again for every request: about 8% of a key read's CPU time).
  const securityHeaders = recordSecurityHeaders();
  const bodyRules = bodyRulesOf(config.http);
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    trackRequest(logger, request.raw, reply.raw);
    securityHeaders.applyTo(reply.raw);
    done(nulInUrl(request.raw.url) ?? bodyRefusal(request.raw, bodyRules));
  });
  // Fastify's own HEAD routes give a body-less answer Content-Length: 0, also a 304 (which must not claim a
  // length the GET would not have); Express sends none.
  fastify.addHook('onRoute', (route: RouteOptions) => {
    if (route.method === 'HEAD') route.onSend = [...[route.onSend ?? []].flat(), withoutLengthOnNotModified];
    // Only routes that take a body pay for the check.
    if ([route.method].flat().some((method) => BODY_METHODS.has(method))) {
      route.preValidation = [...[route.preValidation ?? []].flat(), refuseUnreadableBody];
    }
  });
  fastify.removeAllContentTypeParsers();
  // Every body reaching a parser is JSON or has no Content-Type (bodyRefusal, onRequest, refused the others):
  // '*' is Fastify's parser for both, and for a body without Content-Type the only one it asks.
  fastify.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: config.http.bodyLimitBytes },
    (_request: FastifyRequest, body: string | Buffer, done: (err: Error | null, value?: unknown) => void) => {
      try {
        done(null, parseJsonBytes(Buffer.isBuffer(body) ? body : Buffer.from(body)));
      } catch (error) {
        // Fastify closes the connection after an error here, since the client may still be sending. This body
        // was read to its end, so the connection stays usable, as on Express: the error is raised just after.
        done(null, new UnreadableBody(error as Error));
      }
    },
  );
  return app;
}

/** Counts each request when its answer ends (or its connection closes first), by the matched route's pattern. */
function expressRequestMetrics(metrics: PrometheusMetrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.once('close', () => {
      const route = (req.route as { path?: unknown } | undefined)?.path;
      const label = typeof route === 'string' ? route : UNMATCHED_ROUTE;
      if (label !== METRICS_PATH) metrics.record(req.method, label, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}

/** A body read to its end that did not parse: Fastify's stand-in for it, until `refuseUnreadableBody`. */
class UnreadableBody {
  constructor(readonly error: Error) {}
}

function refuseUnreadableBody(request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
  done(request.body instanceof UnreadableBody ? request.body.error : undefined);
}

function withoutLengthOnNotModified(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: null, payload: unknown) => void,
): void {
  if (reply.statusCode === 304) reply.removeHeader('content-length');
  done(null, payload);
}

/** The headers of answers written before any framework sees the request (see installFrontDoor). */
const frontDoorHeaders = recordSecurityHeaders();

function appOptions(logger: Logger): NestApplicationOptions {
  return {
    bodyParser: false,
    // Boot errors (a bad rule, role or AUTH_PROVIDER, a database that cannot be opened) reach the caller, which reports them and exits.
    abortOnError: false,
    logger: new PinoNestLogger(logger),
  };
}

/**
 * Creates the application (connecting to the database, migrating and checking it), seeds an
 * empty database, and initialises the application (not yet listening).
 */
export async function createApp(parts: AppParts, build: AppFactory = nestFactory): Promise<INestApplication> {
  const app = parts.config.http.adapter === 'fastify' ? await createFastifyApp(parts, build) : await createExpressApp(parts, build);
  try {
    if (await seedProjectOnce(app.get(Database), parts.project, parts.logger)) parts.logger.info("seeded the project's starting data");
    await app.init();
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  if (parts.config.http.adapter === 'fastify') {
    await (app as NestFastifyApplication).getHttpAdapter().getInstance().ready();
  }
  const server = app.getHttpServer() as Server;
  applyServerTimeouts(server, parts.config.http);
  // The console at /admin/ and Swagger UI at <base>/@docs/ui, the same on both adapters; behind the front door's checks.
  const settings = app.get(ApiSettings);
  const apiBases = settings.versions.map((version) => `/rest/${settings.account}/${settings.project}/${version}`);
  new StaticFiles({ apiBases, securityHeaders: frontDoorHeaders, logger: parts.logger }).install(server);
  installFrontDoor(server, { settings: parts.config.http, logger: parts.logger, securityHeaders: frontDoorHeaders });
  const hostWarning = hostSettingsWarning(parts.config.http);
  if (hostWarning) parts.logger.warn(hostWarning);
  return app;
}
