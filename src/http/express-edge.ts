import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { INestApplication, NestApplicationOptions } from '@nestjs/common';
import type { ExpressAdapter as ExpressAdapterType, NestExpressApplication } from '@nestjs/platform-express';
import type { Express, NextFunction, Request, Response } from 'express';
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
    adapter: new (expressPrototypesFromTheStart(jsonReplying(ExpressAdapter)))(),
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
      // The bytes, checked and decoded below as on Fastify: express.text() would drop a byte-order mark itself (iconv-lite),
      // so a body with two would be read differently by the two adapters, and would put U+FFFD for bytes that are not UTF-8.
      const readBytes = express.raw({ type: expressReadsAsJson, limit: http.bodyLimitBytes });
      // One middleware, not three: Express's router dispatches each one it passes (a match, a params object, closures),
      // which every request paid for, a GET without a body included.
      app.use((req: Request, res: Response, next: NextFunction) => {
        trackRequest(logger, req, res);
        securityHeaders.applyTo(res);
        const refused = nulInUrl(req.url) ?? bodyRefusal(req, bodyRules);
        if (refused) {
          next(refused);
          return;
        }
        req.body = undefined;
        if (req.headers['content-type'] === undefined && !BODY_METHODS.has(req.method)) {
          next();
          return;
        }
        readBytes(req, res, (error?: unknown) => {
          if (error) {
            next(error);
            return;
          }
          try {
            req.body = Buffer.isBuffer(req.body) ? parseJsonBytes(req.body) : undefined;
            next();
          } catch (parseError) {
            next(parseError);
          }
        });
      });
    },
  };
}

/** A JSON value Express would answer with `res.json()`: an object or an array, not bytes, a stream or an Error. */
function isPlainJson(body: unknown): body is object {
  return typeof body === 'object' && body !== null && !(body instanceof Error) && !ArrayBuffer.isView(body) && !('getStream' in body);
}

/**
 * Nest's Express adapter, answering JSON itself: the same bytes and headers as `res.json()` (`Content-Type:
 * application/json; charset=utf-8`, `Content-Length`), written with one `res.end(text)`. Express's `res.json` →
 * `res.send` copies a body of 1,000 bytes or more into a Buffer, and looks up the app's JSON and ETag settings and
 * the response's headers on every answer; this path does none of that. Anything else (text, files, HEAD, an answer with another Content-Type, 204 and 304) is
 * Express's, as before.
 */
function jsonReplying(Base: typeof ExpressAdapterType) {
  return class JsonReplyingExpressAdapter extends Base {
    override reply(response: Response, body: unknown, statusCode?: number): unknown {
      const status = statusCode ?? response.statusCode;
      if (
        !isPlainJson(body) ||
        status === 204 ||
        status === 304 ||
        response.req.method === 'HEAD' ||
        response.getHeader('content-type') !== undefined
      ) {
        return super.reply(response, body, statusCode);
      }
      const text = JSON.stringify(body);
      response.statusCode = status;
      response.setHeader('Content-Type', 'application/json; charset=utf-8');
      response.setHeader('Content-Length', Buffer.byteLength(text));
      response.end(text);
      return response;
    }
  };
}

/** Node's constructor, as a function Node's HTTP server can call with `new`: the same object, with `prototype` as its prototype. */
function constructingWithPrototype<Base extends typeof IncomingMessage | typeof ServerResponse>(base: Base, prototype: object): Base {
  function Made(this: object, ...args: unknown[]): void {
    (base as unknown as (...args: unknown[]) => void).apply(this, args);
  }
  Made.prototype = prototype;
  return Made as unknown as Base;
}

/** Whether Node's `IncomingMessage` and `ServerResponse` are functions that can run on an object made elsewhere (not `class`es). */
const NODE_CONSTRUCTORS_ARE_FUNCTIONS = [IncomingMessage, ServerResponse].every(
  (made) => !Function.prototype.toString.call(made).startsWith('class'),
);

/**
 * Nest's Express adapter, on an HTTP server whose requests and responses are made with Express's prototypes (the app's
 * `request` and `response`) from the start. Express 5 gives every request and response those prototypes when it takes
 * them (`Object.setPrototypeOf` in `app.handle`), and changing the prototype of an object that already exists is what
 * V8 does worst: each one then gets shapes of its own, made in the old generation, and every property set later makes
 * more. Measured on `@heartbeat` at 32 connections, that alone put 12 KB per request into the old generation (RSS
 * 260 MB, where Fastify stays at 140) and cost Express a large part of its throughput (bench/RESULTS.md). With the
 * prototypes already right, Express's `setPrototypeOf` changes nothing. Everything else is Nest's server, as before;
 * an HTTPS server, or Nest's options for closing, are left to Nest.
 */
function expressPrototypesFromTheStart(Base: ReturnType<typeof jsonReplying>) {
  return class ExpressPrototypedAdapter extends Base {
    override initHttpServer(options: NestApplicationOptions): void {
      if (!NODE_CONSTRUCTORS_ARE_FUNCTIONS || options.httpsOptions || options.return503OnClosing || options.forceCloseConnections) {
        super.initHttpServer(options);
        return;
      }
      const app = this.getInstance<Express>();
      const server = createServer(
        {
          IncomingMessage: constructingWithPrototype(IncomingMessage, app.request),
          ServerResponse: constructingWithPrototype(ServerResponse, app.response),
        },
        app,
      );
      this.setHttpServer(server);
    }
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
