/**
 * Builds the Nest application on the configured HTTP adapter. What each adapter needs (body
 * parsing, body limits, security headers, trust-proxy) is its edge in src/http/, so everything
 * else (controllers, guards, filters) stays adapter-agnostic. Errors raised while reading a body
 * reach Nest's exception handler, and so the one exception filter, on both adapters.
 */
import type { Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DynamicModule, INestApplication, NestApplicationOptions } from '@nestjs/common';
import type { AbstractHttpAdapter } from '@nestjs/core';
import type { Logger } from 'pino';
import { AppModule } from './app.module.js';
import { ApiSettings } from './config/api-settings.js';
import type { AppParts } from './core.module.js';
import { Database } from './database/database.js';
import { seedProjectOnce } from './database/migrations/seed-project.js';
import { expressEdge } from './http/express-edge.js';
import { fastifyEdge } from './http/fastify-edge.js';
import { installServerEdge, type EdgeParts } from './http/http-edge.js';
import { recordSecurityHeaders } from './http/security-headers.js';
import { PinoNestLogger } from './observability/logger.js';

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
  const edgeParts: EdgeParts = { http: parts.config.http, logger: parts.logger, securityHeaders: recordSecurityHeaders() };
  const edge = parts.config.http.adapter === 'fastify' ? await fastifyEdge(edgeParts) : await expressEdge(edgeParts);
  const app = await build(AppModule.forRoot(parts), edge.adapter, appOptions(parts.logger));
  edge.prepare(app);
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
  const settings = app.get(ApiSettings);
  const apiBases = settings.versions.map((version) => `/rest/${settings.account}/${settings.project}/${version}`);
  installServerEdge(app.getHttpServer() as Server, { ...edgeParts, apiBases });
  return app;
}
