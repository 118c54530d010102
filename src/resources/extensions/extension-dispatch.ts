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
import { FunctionDemand } from '../../extensions/functions/function-registry.js';
import { apiBaseUrl, nextBatchLink, requestIdOf, requestUrlWithoutAuth } from '../../http/request-context.js';
import { callerAccessOf } from '../../security/caller-access.decorator.js';
import { extensionDemandOf } from '../../security/extension-routes.js';
import { readQueryOf } from '../read-query.js';
import { ResourceSerializer } from '../resource-serializer.js';

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
 * Answers the requests RolesGuard admitted to a function or function resource (see `ExtensionRoutes`) on the
 * resource routes: each handler those URLs share with tables asks `claimed` first (one read of the request:
 * nothing else for a table's request) and hands such a request here. The answers:
 * - GET of a function, or of a function resource that answers anything but an array: the JSON value the code returned;
 * - GET of a function resource that answers an array: a page of it, as a table's list (`pagesize`, `offset`, a
 *   `{"@metadata": {"next_batch": ...}}` last when more follow);
 * - POST, PUT, DELETE: `{"statusCode": 200, "result": <value>, "txsummary": [...]}` (201 for a function resource's POST).
 */
@Injectable()
export class ExtensionDispatch {
  constructor(
    private readonly calls: FunctionCalls,
    private readonly settings: ApiSettings,
    private readonly adapterHost: HttpAdapterHost,
    private readonly checksums: RowChecksum,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The extension's answer when RolesGuard admitted the request to one, else undefined (a table's request).
   * `response`: for a GET's answer that is not a JSON object (its Content-Type); a route's status is its own
   * (`@HttpCode`: 201 for a function resource's POST, 200 for every other).
   */
  claimed(request: unknown, response?: unknown): Promise<unknown> | undefined {
    const demand = extensionDemandOf(request);
    return demand instanceof FunctionDemand ? this.answer(request as HttpRequest, response, demand) : undefined;
  }

  private async answer(request: HttpRequest, response: unknown, demand: FunctionDemand): Promise<unknown> {
    const query = request.query ?? {};
    const target = demand.target;
    const rowFunction = target.kind === 'function' && target.definition.kind === 'row';
    const { result, entries } = await this.calls.call({
      demand,
      principal: principalOf(request)!,
      access: callerAccessOf(request),
      keySegment: rowFunction ? rawKeySegment(request) : undefined,
      query,
      body: request.body,
      requestId: requestIdOf(request),
    });
    if (entries) {
      const statusCode = target.kind === 'function resource' && demand.method === 'POST' ? 201 : 200;
      const serializer = new ResourceSerializer(apiBaseUrl(request, this.config.http), this.checksums);
      return { statusCode, result, txsummary: entries.map((e) => serializer.summaryEntry(e)) };
    }
    if (target.kind === 'function resource' && Array.isArray(result)) return this.page(request, query, result);
    if (result !== null && typeof result === 'object') return result;
    // A string, number, boolean or null is answered as JSON too (not as text).
    if (response !== undefined) this.adapterHost.httpAdapter.setHeader(response, 'Content-Type', 'application/json; charset=utf-8');
    return JSON.stringify(result);
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

/** The routes only extensions answer: the handlers run when no extension claims the request, which RolesGuard refuses first. */
export function noSuchEndpoint(): never {
  throw new ApiError(ErrorCode.NOT_FOUND, 'No such resource or endpoint.');
}
