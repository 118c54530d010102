import type { IncomingMessage } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { Metrics } from '../observability/metrics.js';
import { METRICS_PATH, PrometheusMetrics } from '../observability/prometheus-metrics.js';
import { UNMATCHED_ROUTE } from '../observability/request-metrics.js';
import { BODY_METHODS, bodyRefusal, bodyRulesOf } from './body-refusal.js';
import type { EdgeParts, HttpEdge } from './http-edge.js';
import { parseJsonBytes, readsAsJson } from './json-body.js';
import { nulInUrl } from './nul-character.js';
import { trackRequest } from './request-context.js';

/**
 * Whether Express reads the body as JSON: one with a JSON type, or none on a method that takes a body (the
 * body of a DELETE or GET without Content-Type stays unread, as on Fastify, whose routes for them have no
 * parser check).
 */
function expressReadsAsJson(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  return type === undefined ? BODY_METHODS.has(req.method ?? '') : readsAsJson(type);
}

/** The edge on Express (the default adapter). */
export async function expressEdge(parts: EdgeParts): Promise<HttpEdge> {
  // Each adapter's framework is loaded only when it is the one configured: the other one would
  // take about 8 MB of memory (and its modules' load time) for nothing.
  const [{ ExpressAdapter }, { default: express }] = await Promise.all([import('@nestjs/platform-express'), import('express')]);
  const { http, logger, securityHeaders } = parts;
  return {
    adapter: new ExpressAdapter(),
    prepare(nestApp: INestApplication): void {
      const app = nestApp as NestExpressApplication;
      app.disable('x-powered-by');
      // Neither adapter makes ETags of its own (Express hashed every body, errors included), nor answers 304 by
      // itself: Express's res.send() would check req.fresh whenever an ETag is set, and call any GET with
      // If-None-Match: * fresh. The single-object GET answers conditional requests itself, the same on both.
      app.set('etag', false);
      Object.defineProperty(app.getHttpAdapter().getInstance().request, 'fresh', { configurable: true, get: () => false });
      app.set('trust proxy', http.trustProxy);
      app.set('query parser', 'simple');
      // Only when enabled: with metrics off, requests pay nothing for them.
      const metrics = app.get(Metrics);
      if (metrics instanceof PrometheusMetrics) app.use(expressRequestMetrics(metrics));
      const bodyRules = bodyRulesOf(http);
      app.use((req: Request, res: Response, next: NextFunction) => {
        trackRequest(logger, req, res);
        securityHeaders.applyTo(res);
        next(nulInUrl(req.url) ?? bodyRefusal(req, bodyRules));
      });
      // The bytes, checked and decoded below as on Fastify: express.text() would drop a byte-order mark itself (iconv-lite),
      // so a body with two would be read differently by the two adapters, and would put U+FFFD for bytes that are not UTF-8.
      app.use(express.raw({ type: expressReadsAsJson, limit: http.bodyLimitBytes }));
      app.use((req: Request, _res: Response, next: NextFunction) => {
        try {
          req.body = Buffer.isBuffer(req.body) ? parseJsonBytes(req.body) : undefined;
          next();
        } catch (error) {
          next(error);
        }
      });
    },
  };
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
