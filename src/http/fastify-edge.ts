import type { INestApplication } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest, RouteHandlerMethod, RouteOptions } from 'fastify';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { Metrics } from '../observability/metrics.js';
import { METRICS_PATH, PrometheusMetrics } from '../observability/prometheus-metrics.js';
import { UNMATCHED_ROUTE } from '../observability/request-metrics.js';
import { BODY_METHODS, bodyRefusal, bodyRulesOf } from './body-refusal.js';
import { sendErrorResponse } from './error-response.js';
import type { EdgeParts, HttpEdge } from './http-edge.js';
import { parseJsonBytes } from './json-body.js';
import { nulInUrl } from './nul-character.js';
import { trackRequest } from './request-context.js';

/** The edge on Fastify (`HTTP_ADAPTER=fastify`): the same answers as on Express. */
export async function fastifyEdge(parts: EdgeParts): Promise<HttpEdge> {
  const { FastifyAdapter } = await import('@nestjs/platform-fastify');
  const { http, logger, securityHeaders } = parts;
  const adapter = new FastifyAdapter({
    trustProxy: http.trustProxy,
    bodyLimit: http.bodyLimitBytes,
    // Nest owns routing; Fastify's defaults here would differ from Express's (which ignores
    // trailing slashes and the case of fixed path segments). A key may be as
    // long as the URL may (Express has no limit of its own; Fastify's default is 100 characters).
    routerOptions: { ignoreTrailingSlash: true, caseSensitive: false, maxParamLength: http.maxUrlBytes },
    // While draining, answer the last requests on open connections as Express does (with
    // Connection: close, see drainConnections), not with Fastify's own 503 body.
    return503OnClosing: false,
    // The front door refuses malformed URLs first; should Fastify's router still find one, it
    // answers with the envelope too, not with Fastify's own JSON echoing the URL.
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => {
      trackRequest(logger, request.raw, reply.raw);
      const refusal = error instanceof ApiError ? error : new ApiError(ErrorCode.BAD_REQUEST, 'The URL is not valid.');
      sendErrorResponse(reply.raw, refusal, securityHeaders);
    },
  });
  // Nest's not-found handler checks the body first too, as Express does (its body reader runs before routing).
  adapter.setNotFoundHandler = (handler: RouteHandlerMethod) =>
    adapter.getInstance().setNotFoundHandler({ preValidation: refuseUnreadableBody }, handler);
  return {
    adapter,
    prepare(app: INestApplication): void {
      const fastify = (app as NestFastifyApplication).getHttpAdapter().getInstance();
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
      const bodyRules = bodyRulesOf(http);
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
        { parseAs: 'buffer', bodyLimit: http.bodyLimitBytes },
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
    },
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
