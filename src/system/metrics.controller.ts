import { createHash, timingSafeEqual } from 'node:crypto';
import { Controller, Get, Headers, Inject, Res } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { Metrics } from '../observability/metrics.js';
import { PrometheusMetrics } from '../observability/prometheus-metrics.js';
import { Public } from '../common/public.decorator.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';

/** The part of a response object both adapters share (Express `res`, Fastify `reply`). */
interface TextReply {
  header(name: string, value: string): unknown;
  status(code: number): { send(body: string): unknown };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * `/metrics` in Prometheus's text format: 404 unless METRICS_ENABLED, and with METRICS_TOKEN set,
 * 401 / 4010 without `Authorization: Bearer <token>` (compared by hash, in constant time).
 */
@Controller()
export class MetricsController {
  private readonly tokenDigest?: Buffer;

  constructor(
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    if (config.metrics.token !== undefined) this.tokenDigest = digest(config.metrics.token);
  }

  @Public()
  @Get('metrics')
  async scrape(@Headers('authorization') authorization: string | undefined, @Res() reply: TextReply): Promise<void> {
    if (!(this.metrics instanceof PrometheusMetrics)) throw new ApiError(ErrorCode.NOT_FOUND, 'Metrics are off (METRICS_ENABLED).');
    if (this.tokenDigest && !this.authorized(authorization)) {
      throw new ApiError(ErrorCode.NO_TOKEN, 'The metrics need the token METRICS_TOKEN names: Authorization: Bearer <token>.');
    }
    const text = await this.metrics.exposition();
    reply.header('Content-Type', this.metrics.contentType);
    reply.header('Cache-Control', 'no-store');
    reply.status(200).send(text);
  }

  private authorized(authorization: string | undefined): boolean {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    return match !== null && timingSafeEqual(digest(match[1]!), this.tokenDigest!);
  }
}
