import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import type { Principal } from '../../common/principal.js';
import { ApiSettings } from '../../config/api-settings.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { SqlEndpoints, type SqlEndpointDemand } from '../../extensions/sql-endpoints.js';
import { nextBatchLink, requestUrlWithoutAuth } from '../../http/request-context.js';
import { readQueryOf } from '../read-query.js';

/**
 * The answers of the project's SQL resources and procedures at `<base>/<name>`, for a call RolesGuard admitted:
 * a SQL resource's page of rows (with LAC's `next_batch` element when more follow), a procedure's result sets
 * (its arguments from the query of a GET, from the body of a POST).
 */
@Injectable()
export class SqlEndpointAnswers {
  constructor(
    private readonly endpoints: SqlEndpoints,
    private readonly settings: ApiSettings,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async answer(
    demand: SqlEndpointDemand,
    principal: Principal,
    req: unknown,
    query: Record<string, unknown>,
    body: unknown,
  ): Promise<unknown> {
    const endpoint = demand.served;
    const name = demand.endpoint.name;
    if (!endpoint) throw new ApiError(ErrorCode.NOT_FOUND, `The ${demand.endpoint.kind} ${name} is not served on this database.`);
    if (endpoint.kind === 'procedure') {
      if (demand.method === 'GET') return this.endpoints.call(endpoint.procedure, 'query', query);
      const extra = Object.keys(query).filter((k) => k !== 'auth');
      if (extra.length > 0)
        throw new ApiError(ErrorCode.BAD_REQUEST, `A POST to ${name} takes its arguments in its body, not "${extra[0]!.slice(0, 64)}".`);
      return this.endpoints.call(endpoint.procedure, 'body', body ?? {});
    }
    const { pagesize, offset, auth: _auth, ...parameters } = query;
    const page = readQueryOf({ pagesize, offset }, this.settings);
    const { rows, hasMore } = await this.endpoints.page(endpoint.resource, principal, parameters, page);
    const out: unknown[] = rows;
    if (hasMore) {
      out.push({ '@metadata': { next_batch: nextBatchLink(requestUrlWithoutAuth(req, this.config.http), page.offset + page.pageSize) } });
    }
    return out;
  }
}
