import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '../observability/logger.js';
import { Public } from '../common/public.decorator.js';
import { Database } from '../database/database.js';
import { checkReadiness } from './readiness.js';

/** The one part of a response object both adapters share (Express `res`, Fastify `reply`). */
interface StatusReply {
  status(code: number): { send(body: string): unknown };
}

/**
 * Readiness for load balancers and container healthchecks, outside the API base and without a
 * token: 200 when the database answers and the migrations are applied, 503 naming the check that
 * failed. `@heartbeat` stays the liveness answer (the process runs).
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly database: Database,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Public()
  @Get('ready')
  @Header('Content-Type', 'application/json; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  async ready(@Res() reply: StatusReply): Promise<void> {
    const readiness = await checkReadiness(this.database, (check, error) =>
      this.logger.warn({ check, err: error }, 'readiness check failed'),
    );
    const { ready, ...rest } = readiness;
    reply.status(ready ? 200 : 503).send(JSON.stringify({ status: ready ? 'ready' : 'unavailable', ...rest }));
  }
}
