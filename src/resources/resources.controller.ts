import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Inject,
  Patch,
  Post,
  Put,
  Query,
  Req,
  Res,
  UseGuards,
  StreamableFile,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiSettings } from '../config/api-settings.js';
import { rawRequestOf } from '../common/request-slot.js';
import { apiBaseUrl, nextBatchLink, requestIdOf, requestUrlWithoutAuth } from '../http/request-context.js';
import { principalOf } from '../common/principal.js';
import { SecurityService } from '../security/security.service.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { CallerAccess, CallerGrantsOf, type CallerGrants } from '../security/caller-access.decorator.js';
import { RequiresAccess } from '../security/requires-access.decorator.js';
import type { ResourceAccess } from '../security/resource-access.js';
import { ifNoneMatchHolds } from './entity-tag.js';
import { KeySegment } from './key-segment.decorator.js';
import { acceptQueryParameters, type ResponseOptions } from './query-parameters.js';
import { readQueryOf } from './read-query.js';
import { asksInlining, inlinePolicyOf, type InlinePolicy } from './inline-limit.js';
import { contentDisposition } from './download-name.js';
import { RequestDetail } from './request-detail.js';
import { LOGGER } from '../observability/logger.js';
import type { Logger } from 'pino';
import { ResourceSerializer } from './resource-serializer.js';
import { RowChecksum } from '../data/checksum.js';
import { DocumentsService } from '../documents/documents.service.js';
import type { RuleLog } from '../logic/rule-log.js';
import { ruleSummary } from './rule-summary.js';
import { ruleLogAnswer, type ShownFiring } from './rule-log-answer.js';
import { ObjectLinkPlanner } from './meta/object-link-planner.js';
import { CustomResourceRegistry, type ResourceLevel } from '../documents/levels/custom-resource-registry.js';
import { CustomResourceReads, type CustomReadRequest } from './custom/custom-resource-reads.js';
import { namedQueriesOf } from './custom/custom-read-query.js';
import { tableLevel } from '../documents/levels/table-level.js';
import type { SummaryEntry } from '../documents/summary/summary-terms.js';
import { ApiError } from '../common/api-error.js';
import { ResourcePerfGuard } from './perf/resource-perf.guard.js';
import { ErrorCode } from '../common/error-codes.js';
import { negotiateFormat, type Negotiated } from './formats/media-negotiation.js';
import { formatAnswer, levelColumns, tableColumns } from './formats/formatted-answer.js';
import { ApiEvents, type EventSite } from '../extensions/events/api-events.js';
import { eventSiteOf } from './event-site.js';
import { ExtensionsMayAnswer } from '../security/extension-routes.js';
import { ExtensionDispatch } from './extensions/extension-dispatch.js';

interface WriteResult {
  statusCode: number;
  /** Left out with `txsummary=false`. */
  txsummary?: Array<Record<string, unknown>>;
  /** With `rulesummary=true`. */
  rulesummary?: Array<Record<string, unknown>>;
  /** With `rulelog=true`. */
  rulelog?: ShownFiring[];
}

type Query = Record<string, unknown>;

/** Custom resources take the per-level forms of the filter and order parameters (their paths are checked by the reader). */
const ANY_SUB_RESOURCE = (): boolean => true;

/** The key and attribute segments of `<resource>/<pk>/<attribute>`: the key as sent (see `KeySegment`), the attribute decoded. */
function rawPathTail(req: unknown): [string, string] {
  const parts = (rawRequestOf(req).url ?? '/')
    .replace(/[?#][\s\S]*$/, '')
    .replace(/\/$/, '')
    .split('/');
  let attribute: string;
  try {
    attribute = decodeURIComponent(parts.at(-1) ?? '');
  } catch {
    throw new ApiError(ErrorCode.BAD_REQUEST, 'The attribute in the URL is not correctly encoded.');
  }
  return [parts.at(-2) ?? '', attribute];
}

/** Bytes' type by their signature: the common images and PDF; anything else is plain bytes. */
function contentTypeOf(bytes: Buffer): string {
  const starts = (...signature: number[]): boolean => signature.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return 'application/octet-stream';
}

/** An ETag or If-Match value may come quoted, and weak. */
function unquote(value: string | undefined): string | undefined {
  return (
    value
      ?.trim()
      .replace(/^W\//, '')
      .replace(/^"(.*)"$/, '$1') || undefined
  );
}

/**
 * GET, POST, PUT (PATCH is the same), and DELETE on the project's resources (spec §4.5–4.8, api-contract
 * §5–§7). Each handler first refuses query parameters its endpoint does not take (query-parameters.ts).
 */
@Controller('rest/:account/:project/:version')
@UseGuards(ResourcePerfGuard)
// The project's extensions (functions, function resources, SQL resources, procedures) answer their URLs through these handlers (`ExtensionDispatch`).
@ExtensionsMayAnswer()
export class ResourcesController {
  constructor(
    private readonly resources: DocumentsService,
    private readonly settings: ApiSettings,
    private readonly adapterHost: HttpAdapterHost,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly checksums: RowChecksum,
    private readonly links: ObjectLinkPlanner,
    private readonly customResources: CustomResourceRegistry,
    private readonly customReads: CustomResourceReads,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly security: SecurityService,
    private readonly events: ApiEvents,
    private readonly extensions: ExtensionDispatch,
  ) {}

  @Get(':resource')
  @RequiresAccess('READ')
  async list(
    @Req() req: unknown,
    @Res({ passthrough: true }) res: unknown,
    @CallerAccess() access: ResourceAccess,
    @Query() query: Query,
  ): Promise<unknown> {
    // An extension's request (RolesGuard found the route to be one): one property read for a table's.
    const extension = this.extensions.claimed(req, res);
    if (extension) return extension;
    const negotiated = negotiateFormat(rawRequestOf(req).headers.accept);
    const level = this.levelOf(req);
    const options = acceptQueryParameters(query, 'list', level ? ANY_SUB_RESOURCE : undefined);
    const detail = RequestDetail.begin(this.logger, req, options.detail, 'list', level?.path ?? access.resource.name, query);
    // CSV's header is found before the read: a level CSV cannot hold is refused then.
    const columns = negotiated.format !== 'csv' ? [] : level ? levelColumns(level, access) : tableColumns(access.resource, access);
    const site = this.eventsAt(req, access, query);
    if (site) await this.events.request(site, undefined);
    const out = await observed(detail, () =>
      level
        ? this.customReads.list(level, access, this.customReadRequest(req, query, options))
        : this.tableList(req, access, query, options),
    );
    const more = out.length > 0 && isNextBatch(out.at(-1));
    detail?.read(more ? out.length - 1 : out.length, more);
    const shown = site ? await this.events.response(site, out) : out;
    this.download(res, options);
    return this.answer(res, negotiated, shown, level?.path ?? access.resource.urlName, columns);
  }

  private async tableList(req: unknown, access: ResourceAccess, query: Query, { nometa }: ResponseOptions): Promise<unknown[]> {
    const resource = access.resource;
    const read = readQueryOf(query, this.settings);
    const inline = inlinePolicyOf(query);
    // The table's named filters and orders (`tableQueries`), as a custom resource's.
    const named = query.userfilter === undefined && query.userorder === undefined ? undefined : namedQueriesOf(tableLevel(resource), query);
    const { rows, hasMore } = await this.resources.list(access, read, named);
    const serializer = this.serializer(req);
    const links = nometa ? undefined : this.links.plan(access, apiBaseUrl(req, this.config.http));
    const out: unknown[] = links
      ? rows.map((r) => serializer.object(resource, r.row, r.readable, inline, links))
      : rows.map((r) => serializer.bare(resource, r.row, r.readable));
    if (hasMore) out.push({ '@metadata': { next_batch: this.nextBatch(req, read.offset + read.pageSize) } });
    return out;
  }

  @Get(':resource/:pk')
  @RequiresAccess('READ')
  async get(
    @Req() req: unknown,
    @Res({ passthrough: true }) res: unknown,
    @CallerAccess() access: ResourceAccess,
    @KeySegment() pk: string,
    @Query() query: Query,
    @Headers('if-none-match') ifNoneMatch?: string,
  ): Promise<unknown> {
    const extension = this.extensions.claimed(req, res);
    if (extension) return extension;
    const negotiated = negotiateFormat(rawRequestOf(req).headers.accept);
    const level = this.levelOf(req);
    const options = acceptQueryParameters(query, 'get', level ? ANY_SUB_RESOURCE : undefined);
    const detail = RequestDetail.begin(this.logger, req, options.detail, 'get', level?.path ?? access.resource.name, query);
    const site = this.eventsAt(req, access, query);
    if (site) await this.events.request(site, undefined);
    if (level) {
      const columns = negotiated.format === 'csv' ? levelColumns(level, access) : [];
      // LAC ignores `offset` on a single object; it is not the root level's offset here either.
      const { offset: _ignored, ...rest } = query;
      const out = await observed(detail, () => this.customReads.get(level, access, pk, this.customReadRequest(req, rest, options)));
      detail?.read(out.length, false);
      const shown = site ? await this.events.response(site, out) : out;
      this.download(res, options);
      return this.answer(res, negotiated, shown, level.path, columns);
    }
    const resource = access.resource;
    const { nometa } = options;
    const inline = inlinePolicyOf(query);
    const columns = negotiated.format === 'csv' ? tableColumns(resource, access) : [];
    const found = await observed(detail, () => this.resources.get(access, pk));
    detail?.read(found ? 1 : 0, false);
    this.download(res, options);
    if (!found) return this.answer(res, negotiated, [], resource.urlName, columns);
    const serializer = this.serializer(req);
    const links = nometa ? undefined : this.links.plan(access, apiBaseUrl(req, this.config.http));
    const object = links
      ? serializer.object(resource, found.row, found.readable, inline, links)
      : serializer.bare(resource, found.row, found.readable);
    if (negotiated.format !== 'json')
      return this.answer(res, negotiated, site ? await this.events.response(site, [object]) : [object], resource.urlName, columns);
    // The ETag is the object's checksum: hash the row once, not once for each. JSON only: the
    // checksum names the row, and an If-Match or checksum taken from it must mean the same row.
    const checksum = nometa ? this.checksums.of(resource, found.row) : (object['@metadata'] as { checksum: string }).checksum;
    const etag = `"${checksum}"`;
    this.adapterHost.httpAdapter.setHeader(res, 'ETag', etag);
    this.varyByAccept(res);
    // A conditional GET (RFC 9110 §13.1.2), answered here for both adapters: the client's copy is current.
    // It tells only what the ETag it would get says already.
    if (ifNoneMatch !== undefined && ifNoneMatchHolds(ifNoneMatch, etag)) {
      this.adapterHost.httpAdapter.status(res, 304);
      return undefined;
    }
    return site ? this.events.response(site, [object]) : [object];
  }

  /**
   * One attribute's whole value, as text: the link `inlinelimit` puts in place of a long value
   * (`<row href>/<attribute>`), on tables and custom resources alike, under the same grants as
   * the row's GET (404 / 4041 when the caller cannot see the row, 400 / 4003 for a column it
   * cannot read). A binary column's value is its bytes, typed by their first bytes where they
   * are an image or a PDF (`application/octet-stream` otherwise; never a type a browser runs).
   */
  @Get(':resource/:pk/:attribute')
  @RequiresAccess('READ')
  async value(
    @Req() req: unknown,
    @Res({ passthrough: true }) res: unknown,
    @CallerAccess() access: ResourceAccess,
    @Query() query: Query,
  ): Promise<unknown> {
    const extension = this.extensions.claimed(req, res);
    if (extension) return extension;
    const options = acceptQueryParameters(query, 'value');
    const [segment, attribute] = rawPathTail(req);
    const level = this.levelOf(req);
    const column = level ? level.attributeByName.get(attribute)?.column : access.resource.columnsByName.get(attribute);
    const detail = RequestDetail.begin(this.logger, req, options.detail, 'value', level?.path ?? access.resource.name, query);
    // Request events judge the request; the answer is a value as text, not JSON: response events do not reshape it.
    const site = this.eventsAt(req, access, query);
    if (site) await this.events.request(site, undefined);
    const value = await observed(detail, () =>
      level ? this.customReads.value(level, access, segment, attribute) : this.resources.value(access, segment, attribute),
    );
    detail?.read(value === undefined ? 0 : 1, false);
    if (value === undefined) throw new ApiError(ErrorCode.OBJECT_NOT_FOUND, `No ${level?.path ?? access.resource.name} with that key.`);
    this.download(res, options);
    if (column?.kind === 'binary') {
      const bytes = value === null ? Buffer.alloc(0) : Buffer.from(String(value), 'base64');
      this.adapterHost.httpAdapter.setHeader(res, 'X-Content-Type-Options', 'nosniff');
      return new StreamableFile(bytes, { type: contentTypeOf(bytes), length: bytes.length });
    }
    this.adapterHost.httpAdapter.setHeader(res, 'Content-Type', 'text/plain; charset=utf-8');
    return value === null ? '' : String(value);
  }

  @Post(':resource')
  @HttpCode(201)
  @RequiresAccess('INSERT')
  async insert(
    @Req() req: unknown,
    @CallerAccess() access: ResourceAccess,
    @Body() body: unknown,
    @Query() query: Query,
  ): Promise<unknown> {
    return (
      this.extensions.claimed(req) ??
      this.write(req, 201, access, query, acceptQueryParameters(query, 'insert'), body, (sent, log) =>
        this.resources.insert(access, sent, log, this.levelOf(req), versionOf(req)),
      )
    );
  }

  /**
   * LAC's "Mix and Match" at the API root: each object names its resource (`@metadata.entity` or a full
   * `@metadata.href`) and is inserted there unless its `@metadata.action` says otherwise; one transaction.
   */
  @Post()
  @HttpCode(201)
  @RequiresAccess('EACH_OBJECT')
  async insertAtRoot(
    @Req() req: unknown,
    @CallerGrantsOf() grants: CallerGrants,
    @Body() body: unknown,
    @Query() query: Query,
  ): Promise<WriteResult> {
    return this.write(req, 201, undefined, query, acceptQueryParameters(query, 'insert'), body, (sent, log) =>
      this.resources.writeAtRoot(grants, sent, 'INSERT', undefined, log, versionOf(req)),
    );
  }

  /** The same as `insertAtRoot`, objects without `@metadata.action` updated (each with its checksum). */
  @Put()
  @RequiresAccess('EACH_OBJECT')
  async updateAtRoot(
    @Req() req: unknown,
    @CallerGrantsOf() grants: CallerGrants,
    @Body() body: unknown,
    @Query() query: Query,
    @Headers('if-match') ifMatch?: string,
  ): Promise<WriteResult> {
    return this.write(req, 200, undefined, query, acceptQueryParameters(query, 'update'), body, (sent, log) =>
      this.resources.writeAtRoot(grants, sent, 'UPDATE', unquote(ifMatch), log, versionOf(req)),
    );
  }

  @Put(':resource')
  @RequiresAccess('UPDATE')
  async updateMany(
    @Req() req: unknown,
    @CallerAccess() access: ResourceAccess,
    @Body() body: unknown,
    @Query() query: Query,
    @Headers('if-match') ifMatch?: string,
  ): Promise<unknown> {
    return (
      this.extensions.claimed(req) ??
      this.write(req, 200, access, query, acceptQueryParameters(query, 'update'), body, (sent, log) =>
        this.resources.update(access, sent, undefined, unquote(ifMatch), log, this.levelOf(req), versionOf(req)),
      )
    );
  }

  /** LAC answers PATCH as PUT. */
  @Patch(':resource')
  @RequiresAccess('UPDATE')
  patchMany(
    @Req() req: unknown,
    @CallerAccess() access: ResourceAccess,
    @Body() body: unknown,
    @Query() query: Query,
    @Headers('if-match') ifMatch?: string,
  ): Promise<unknown> {
    return this.updateMany(req, access, body, query, ifMatch);
  }

  @Put(':resource/:pk')
  @RequiresAccess('UPDATE')
  async update(
    @Req() req: unknown,
    @CallerAccess() access: ResourceAccess,
    @KeySegment() pk: string,
    @Body() body: unknown,
    @Query() query: Query,
    @Headers('if-match') ifMatch?: string,
  ): Promise<unknown> {
    return (
      this.extensions.claimed(req) ??
      this.write(req, 200, access, query, acceptQueryParameters(query, 'update'), body, (sent, log) =>
        this.resources.update(access, sent, pk, unquote(ifMatch), log, this.levelOf(req), versionOf(req)),
      )
    );
  }

  /** LAC answers PATCH as PUT. */
  @Patch(':resource/:pk')
  @RequiresAccess('UPDATE')
  patch(
    @Req() req: unknown,
    @CallerAccess() access: ResourceAccess,
    @KeySegment() pk: string,
    @Body() body: unknown,
    @Query() query: Query,
    @Headers('if-match') ifMatch?: string,
  ): Promise<unknown> {
    return this.update(req, access, pk, body, query, ifMatch);
  }

  @Delete(':resource/:pk')
  @RequiresAccess('DELETE')
  async delete(
    @Req() req: unknown,
    @CallerAccess() access: ResourceAccess,
    @KeySegment() pk: string,
    @Query() query: Query,
    @Headers('if-match') ifMatch?: string,
  ): Promise<WriteResult> {
    const options = acceptQueryParameters(query, 'delete');
    const given = typeof query.checksum === 'string' ? query.checksum : unquote(ifMatch);
    return this.write(req, 200, access, query, options, undefined, async (_none, log) => {
      try {
        return await this.resources.delete(access, pk, given, log, this.levelOf(req));
      } catch (error) {
        // LAC's `ignoredeleted`: a row that is not there (or that the caller cannot see: the same 4041) is deleted already.
        if (options.ignoreDeleted && error instanceof ApiError && error.errorCode === ErrorCode.OBJECT_NOT_FOUND) return [];
        throw error;
      }
    });
  }

  /**
   * Runs a write and answers its result. Rules run with the system's rights; the service has
   * already left out the rows the caller could not GET and says which columns a GET would show of
   * the others, and in whose terms each row is shown (the written resource's, or
   * `<prefix>:<table>`: see `SummaryTerms`). The rules that fire are recorded only when the
   * request asks for them (`rulesummary`, `rulelog`) or the service logs at debug, which then
   * gets one line per firing, shown as `rulelog` would show it to this caller. The project's request
   * events see the body first (and may give another: `run` gets the one to write), its response events
   * the answer last.
   */
  private async write(
    req: unknown,
    statusCode: number,
    /** The request's resource; undefined at the API root (a mixed write). */
    access: ResourceAccess | undefined,
    query: Query,
    options: ResponseOptions,
    /** The request's body; undefined for a DELETE. */
    body: unknown,
    run: (body: unknown, ruleLog: RuleLog | undefined) => Promise<SummaryEntry[]>,
  ): Promise<WriteResult> {
    // `inlinelimit`, `deferred`, `inline` shape the txsummary's text values as a GET's; without them values are whole.
    const inline: InlinePolicy | undefined = asksInlining(query) ? inlinePolicyOf(query) : undefined;
    if (options.rulelog) this.refuseRuleLog(req);
    const written = this.levelOf(req)?.path ?? access?.resource.name ?? 'the API root';
    const detail = RequestDetail.begin(this.logger, req, options.detail, 'write', written, query);
    const logFirings = this.logger.isLevelEnabled('debug');
    const ruleLog = this.resources.ruleLogFor(options.rulesummary || options.rulelog || logFirings);
    const site = this.eventsAt(req, access, query);
    const sent = site ? await this.events.request(site, body) : body;
    const entries = await observed(detail, () => run(sent, ruleLog));
    detail?.wrote(entries);
    const serializer = this.serializer(req);
    const result: WriteResult = { statusCode };
    if (options.txsummary) result.txsummary = entries.map((e) => serializer.summaryEntry(e, inline));
    if (ruleLog && options.rulesummary) result.rulesummary = ruleSummary(entries, ruleLog, serializer);
    if (ruleLog && (options.rulelog || logFirings)) {
      const firings = ruleLogAnswer(entries, ruleLog, serializer);
      if (options.rulelog) result.rulelog = firings;
      if (logFirings) {
        const log = this.logger.child({ requestId: requestIdOf(req) });
        for (const firing of firings) log.debug({ firing }, 'rule fired');
      }
    }
    return site ? this.events.response(site, result) : result;
  }

  /**
   * Where the request is, when one of the project's request or response events has work there; else undefined, and
   * the request neither calls nor awaits the events. (Measured: with the two awaits on every GET of the demo, whose
   * events meet only line item writes and v2's customers, the old generation grew to 170 MB between full collections
   * under load, against 45 MB without them, and RSS from 140 to 215 MB.)
   */
  private eventsAt(req: unknown, access: ResourceAccess | undefined, query: Query): EventSite | undefined {
    if (!this.events.declared) return undefined;
    const site = this.eventSite(req, access, query);
    return this.events.meets(site) ? site : undefined;
  }

  /** Where the request is, for the project's request and response events (asked only when the project declares some). */
  private eventSite(req: unknown, access: ResourceAccess | undefined, query: Query): EventSite {
    const table = access?.resource.name;
    return eventSiteOf(req, this.levelOf(req)?.path ?? table, table, query);
  }

  /**
   * `rulelog` names the project's rules and which ran: for roles that may read the API's design
   * (`metaAccess`, which opens `@rules`). Anyone else hears 403 / 4030 before anything is written.
   */
  private refuseRuleLog(req: unknown): void {
    const principal = principalOf(req);
    if (principal && this.security.mayUseMeta(principal)) return;
    throw new ApiError(
      ErrorCode.FORBIDDEN,
      'Your roles do not permit the rule log: rulelog=true takes a role with meta access (metaAccess), as @rules does.',
    );
  }

  /**
   * The custom resource level the request's `:resource` names (`Customers`, `Customers.Orders`),
   * or undefined for a table: RolesGuard has judged it already, on the level's table (the access's
   * resource). One map lookup; none when the project has no custom resources.
   */
  private levelOf(req: unknown): ResourceLevel | undefined {
    if (this.customResources.size === 0) return undefined;
    const params = (req as { params?: Record<string, string | undefined> }).params;
    return params?.resource === undefined ? undefined : this.customResources.find(params.resource, params.version);
  }

  /**
   * A nested GET's request. Per-level parameters (`filter.Orders`) are let through here; the custom
   * reader refuses a path the level does not have, naming it.
   */
  private customReadRequest(req: unknown, query: Query, { nometa }: ResponseOptions): CustomReadRequest {
    return {
      baseUrl: apiBaseUrl(req, this.config.http),
      url: requestUrlWithoutAuth(req, this.config.http),
      query,
      nometa,
      principal: principalOf(req),
      requestId: requestIdOf(req),
    };
  }

  /**
   * A GET's answer in the format its Accept header chose (see `negotiateFormat`): JSON as it is,
   * CSV or XML as text (see `formatAnswer`), the next batch then also in a `Link` header.
   * `columns`: CSV's header, found before the read (a level CSV cannot hold is refused then).
   */
  private answer(res: unknown, negotiated: Negotiated, items: unknown[], name: string, columns: readonly string[]): unknown {
    this.varyByAccept(res);
    if (negotiated.format === 'json') return items;
    const answer = formatAnswer(negotiated, items, name, columns);
    const adapter = this.adapterHost.httpAdapter;
    adapter.setHeader(res, 'Content-Type', answer.contentType);
    if (answer.next) adapter.setHeader(res, 'Link', `<${answer.next}>; rel="next"`);
    return answer.body;
  }

  /** The answer depends on Accept: one Vary header on both adapters, after CORS's `Origin` when it set one. */
  private varyByAccept(res: unknown): void {
    const adapter = this.adapterHost.httpAdapter;
    const current = adapter.getHeader(res, 'Vary') as string | string[] | undefined;
    const values = (Array.isArray(current) ? current.join(', ') : (current ?? ''))
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
    if (!values.some((v) => v.toLowerCase() === 'accept' || v === '*')) values.push('Accept');
    adapter.setHeader(res, 'Vary', values.join(', '));
  }

  /** LAC's `downloadName`: the answer is a file of that name (download-name.ts). Set on success only. */
  private download(res: unknown, options: ResponseOptions): void {
    if (options.downloadName !== undefined) {
      this.adapterHost.httpAdapter.setHeader(res, 'Content-Disposition', contentDisposition(options.downloadName));
    }
  }

  private serializer(req: unknown): ResourceSerializer {
    return new ResourceSerializer(apiBaseUrl(req, this.config.http), this.checksums);
  }

  /** The same request with the next offset; an `auth` key in the URL (however spelled) is not copied into it. */
  private nextBatch(req: unknown, offset: number): string {
    return nextBatchLink(requestUrlWithoutAuth(req, this.config.http), offset);
  }
}

/** The URL's API version (`/rest/<account>/<project>/<version>/...`). */
function versionOf(req: unknown): string | undefined {
  return (req as { params?: Record<string, string | undefined> }).params?.version;
}

/** Runs `work`, logging its failure (by code) to the request's detail when there is one. */
async function observed<T>(detail: RequestDetail | undefined, work: () => Promise<T>): Promise<T> {
  if (!detail) return work();
  try {
    return await work();
  } catch (error) {
    detail.failed(error);
    throw error;
  }
}

/** The `{"@metadata": {"next_batch": ...}}` element that ends a page when more rows follow. */
function isNextBatch(element: unknown): boolean {
  const metadata = (element as { '@metadata'?: { next_batch?: unknown } } | null)?.['@metadata'];
  return typeof metadata?.next_batch === 'string';
}
