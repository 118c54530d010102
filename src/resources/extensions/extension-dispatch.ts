import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import { principalOf } from '../../common/principal.js';
import { rawRequestOf } from '../../common/request-slot.js';
import { ApiSettings } from '../../config/api-settings.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { RowChecksum } from '../../data/checksum.js';
import { FunctionCalls } from '../../extensions/functions/function-calls.js';
import type { EventSite } from '../../extensions/events/api-events.js';
import { ApiEvents } from '../../extensions/events/api-events.js';
import { FunctionDemand } from '../../extensions/functions/function-registry.js';
import { SqlEndpointDemand } from '../../extensions/sql-endpoints.js';
import { apiBaseUrl, nextBatchLink, requestIdOf, requestUrlWithoutAuth } from '../../http/request-context.js';
import { callerAccessOf } from '../../security/caller-access.decorator.js';
import { extensionDemandOf } from '../../security/extension-routes.js';
import { eventSiteOf } from '../event-site.js';
import { readQueryOf } from '../read-query.js';
import { ResourceSerializer } from '../resource-serializer.js';
import { SqlEndpointAnswers } from './sql-endpoint-answers.js';

type HttpRequest = { query?: Record<string, unknown>; body?: unknown };

/** The `<key>` of `<table>/<key>/<function>`, as the client sent it (still URL-encoded, for `parseKeySegment`). */
function rawKeySegment(request: unknown): string {
  const parts = (rawRequestOf(request).url ?? '/')
    .replace(/[?#][\s\S]*$/, '')
    .replace(/\/$/, '')
    .split('/');
  return parts.at(-2) ?? '';
}

/**
 * Answers the requests RolesGuard admitted to an extension (see `ExtensionRoutes`) on the resource routes: each
 * handler those URLs share with tables asks `claimed` first (one read of the request: nothing else for a table's
 * request) and hands such a request here. The project's request events meet it first (they may refuse it or adjust a
 * POST's or PUT's body) and its response events meet the answer, as on a table: an extension's name for them is its
 * own (`owedByCustomer`, `customer_orders`), a table's function's `<table>/<function>`. The answers:
 * - GET of a function, or of a function resource that answers anything but an array: the JSON value the code returned;
 * - GET of a function resource that answers an array: a page of it, as a table's list (`pagesize`, `offset`, a
 *   `{"@metadata": {"next_batch": ...}}` last when more follow);
 * - POST, PUT, DELETE of a function or function resource: `{"statusCode": 200, "result": <value>, "txsummary": [...]}`
 *   (201 for a function resource's POST);
 * - a SQL resource's page of rows, a procedure's result sets (`SqlEndpointAnswers`).
 */
@Injectable()
export class ExtensionDispatch {
  constructor(
    private readonly calls: FunctionCalls,
    private readonly sql: SqlEndpointAnswers,
    private readonly events: ApiEvents,
    private readonly settings: ApiSettings,
    private readonly adapterHost: HttpAdapterHost,
    private readonly checksums: RowChecksum,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The extension's answer when RolesGuard admitted the request to one, else undefined (a table's request).
   * `response`: for an answer that is not a JSON object or array (its Content-Type); a route's status is its own
   * (`@HttpCode`: 201 for a POST on `<name>`, 200 for every other).
   */
  claimed(request: unknown, response?: unknown): Promise<unknown> | undefined {
    const demand = extensionDemandOf(request);
    return demand instanceof FunctionDemand || demand instanceof SqlEndpointDemand
      ? this.answer(request as HttpRequest, response, demand)
      : undefined;
  }

  private async answer(request: HttpRequest, response: unknown, demand: FunctionDemand | SqlEndpointDemand): Promise<unknown> {
    const query = request.query ?? {};
    const principal = principalOf(request)!;
    const site = this.eventsAt(request, demand, query);
    const sent = demand.method === 'POST' || demand.method === 'PUT' ? request.body : undefined;
    const body = site ? await this.events.request(site, sent) : sent;
    const value =
      demand instanceof FunctionDemand
        ? await this.functionAnswer(request, demand, query, body)
        : await this.sql.answer(demand, principal, request, query, body);
    const shown = site ? await this.events.response(site, value) : value;
    if (shown !== null && typeof shown === 'object') return shown;
    // A string, number, boolean or null is answered as JSON too (not as text).
    if (response !== undefined) this.adapterHost.httpAdapter.setHeader(response, 'Content-Type', 'application/json; charset=utf-8');
    return JSON.stringify(shown);
  }

  private async functionAnswer(
    request: HttpRequest,
    demand: FunctionDemand,
    query: Record<string, unknown>,
    body: unknown,
  ): Promise<unknown> {
    const target = demand.target;
    const { result, entries } = await this.calls.call({
      demand,
      principal: principalOf(request)!,
      access: callerAccessOf(request),
      keySegment: isRowFunction(demand) ? rawKeySegment(request) : undefined,
      query,
      body,
      requestId: requestIdOf(request),
    });
    if (entries) {
      const statusCode = target.kind === 'function resource' && demand.method === 'POST' ? 201 : 200;
      const serializer = new ResourceSerializer(apiBaseUrl(request, this.config.http), this.checksums);
      return { statusCode, result, txsummary: entries.map((e) => serializer.summaryEntry(e)) };
    }
    if (target.kind === 'function resource' && Array.isArray(result)) return this.page(request, query, result);
    return result;
  }

  /** Where the request is for the project's events, when one has work there (asked only when the project declares some). */
  private eventsAt(
    request: HttpRequest,
    demand: FunctionDemand | SqlEndpointDemand,
    query: Record<string, unknown>,
  ): EventSite | undefined {
    if (!this.events.declared) return undefined;
    const target = demand instanceof FunctionDemand ? demand.target : undefined;
    const name = !target
      ? demand.endpoint!.name
      : target.kind === 'function'
        ? `${target.table.name}/${target.definition.name}`
        : target.definition.name;
    const site = eventSiteOf(request, name, target?.kind === 'function' ? target.table.name : undefined, query);
    // Only a row function's URL has a key (`<table>/<key>/<function>`); a resource function's name sits where a key would.
    if (!isRowFunction(demand)) site.key = undefined;
    return this.events.meets(site) ? site : undefined;
  }

  /** A page of a function resource's rows, as a table's list is paged. */
  private page(request: HttpRequest, query: Record<string, unknown>, rows: unknown[]): unknown[] {
    const { pageSize, offset } = readQueryOf({ pagesize: query.pagesize, offset: query.offset }, this.settings);
    const out = rows.slice(offset, offset + pageSize);
    if (rows.length > offset + pageSize) {
      out.push({ '@metadata': { next_batch: nextBatchLink(requestUrlWithoutAuth(request, this.config.http), offset + pageSize) } });
    }
    return out;
  }
}

function isRowFunction(demand: FunctionDemand | SqlEndpointDemand): boolean {
  return demand instanceof FunctionDemand && demand.target.kind === 'function' && demand.target.definition.kind === 'row';
}

/** The routes only extensions answer: the handlers run when no extension claims the request, which RolesGuard refuses first. */
export function noSuchEndpoint(): never {
  throw new ApiError(ErrorCode.NOT_FOUND, 'No such resource or endpoint.');
}
