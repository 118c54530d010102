import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiSettings } from '../common/api-settings.js';
import { rawRequestOf, requestOrigin } from '../common/request-context.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/app-config.js';
import { Inject } from '@nestjs/common';
import type { SummaryEntry } from '../logic/transaction-summary.js';
import { rowChecksum } from './checksum.js';
import { readQueryOf } from './read-query.js';
import { ResourceSerializer } from './resource-serializer.js';
import { ResourcesService } from './resources.service.js';

interface WriteResult {
  statusCode: number;
  txsummary: Array<Record<string, unknown>>;
}

/** An ETag or If-Match value may come quoted, and weak. */
function unquote(value: string | undefined): string | undefined {
  return value?.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1') || undefined;
}

/** GET, POST, PUT and DELETE on the project's resources (spec §4.5–4.8, api-contract §5–§6). */
@Controller('rest/:account/:project/:version')
export class ResourcesController {
  constructor(
    private readonly resources: ResourcesService,
    private readonly settings: ApiSettings,
    private readonly adapterHost: HttpAdapterHost,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':resource')
  async list(@Req() req: unknown, @Param('resource') name: string, @Query() query: Record<string, unknown>): Promise<unknown[]> {
    const resource = this.resources.resource(name);
    const read = readQueryOf(query, this.settings);
    const { rows, hasMore } = await this.resources.list(resource, read);
    const serializer = this.serializer(req);
    const out: unknown[] = rows.map((row) => serializer.object(resource, row));
    if (hasMore) out.push({ '@metadata': { next_batch: this.nextBatch(req, read.offset + read.pageSize) } });
    return out;
  }

  @Get(':resource/:pk')
  async get(@Req() req: unknown, @Res({ passthrough: true }) res: unknown, @Param('resource') name: string, @Param('pk') pk: string): Promise<unknown[]> {
    const resource = this.resources.resource(name);
    const row = await this.resources.get(resource, pk);
    if (!row) return [];
    this.adapterHost.httpAdapter.setHeader(res, 'ETag', `"${rowChecksum(resource, row)}"`);
    return [this.serializer(req).object(resource, row)];
  }

  @Post(':resource')
  @HttpCode(201)
  async insert(@Req() req: unknown, @Param('resource') name: string, @Body() body: unknown): Promise<WriteResult> {
    const resource = this.resources.resource(name);
    return this.result(req, 201, await this.resources.insert(resource, body));
  }

  @Put(':resource')
  async updateMany(@Req() req: unknown, @Param('resource') name: string, @Body() body: unknown, @Headers('if-match') ifMatch?: string): Promise<WriteResult> {
    const resource = this.resources.resource(name);
    return this.result(req, 200, await this.resources.update(resource, body, undefined, unquote(ifMatch)));
  }

  @Put(':resource/:pk')
  async update(
    @Req() req: unknown,
    @Param('resource') name: string,
    @Param('pk') pk: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch?: string,
  ): Promise<WriteResult> {
    const resource = this.resources.resource(name);
    return this.result(req, 200, await this.resources.update(resource, body, pk, unquote(ifMatch)));
  }

  @Delete(':resource/:pk')
  async delete(
    @Req() req: unknown,
    @Param('resource') name: string,
    @Param('pk') pk: string,
    @Query('checksum') checksum: unknown,
    @Headers('if-match') ifMatch?: string,
  ): Promise<WriteResult> {
    const resource = this.resources.resource(name);
    const given = typeof checksum === 'string' ? checksum : unquote(ifMatch);
    return this.result(req, 200, await this.resources.delete(resource, pk, given));
  }

  private result(req: unknown, statusCode: number, entries: SummaryEntry[]): WriteResult {
    const serializer = this.serializer(req);
    return { statusCode, txsummary: entries.map((e) => serializer.summaryEntry(e.resource, e.row, e.verb)) };
  }

  private apiUrl(req: unknown): string {
    const raw = rawRequestOf(req);
    const { account, project, version } = (req as { params: Record<string, string> }).params;
    return `${requestOrigin(raw, this.config.http.trustProxy)}/rest/${encodeURIComponent(account!)}/${encodeURIComponent(project!)}/${encodeURIComponent(version!)}`;
  }

  private serializer(req: unknown): ResourceSerializer {
    return new ResourceSerializer(this.apiUrl(req));
  }

  /** The same request with the next offset; an `auth` key in the URL is not copied into it. */
  private nextBatch(req: unknown, offset: number): string {
    const raw = rawRequestOf(req);
    const url = new URL(raw.url ?? '/', requestOrigin(raw, this.config.http.trustProxy));
    url.searchParams.delete('auth');
    url.searchParams.set('offset', String(offset));
    return url.toString();
  }
}
