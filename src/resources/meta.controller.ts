import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { Public } from '../common/public.decorator.js';
import { apiBaseUrl, nextBatchLink, requestUrlWithoutAuth } from '../http/request-context.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { RequiresAccess } from '../security/requires-access.decorator.js';
import { CustomResourceRegistry } from '../documents/levels/custom-resource-registry.js';
import { describeCustomResource, describeExtensionResource, describeTableResource } from './meta/resource-description.js';
import { ExtensionDirectory } from '../extensions/extension-directory.js';
import { describeFunction } from './meta/function-description.js';
import { FunctionRegistry } from '../extensions/functions/function-registry.js';
import { acceptOneEntryQuery, pageOfMetaList } from './meta/meta-list-query.js';
import { describeTable } from './meta/table-description.js';
import { OpenApiDocs } from './openapi/openapi-document.js';
import type { JsonObject, OpenApiDocument } from '../common/openapi/openapi-types.js';
import { toSwagger2 } from './openapi/swagger2.js';
import { ResourceRegistry, type Resource } from '../data/resource-registry.js';
import { ApiSettings } from '../config/api-settings.js';
import { RuleBank } from '../logic/rule-bank.js';
import { CallerAccess } from '../security/caller-access.decorator.js';
import type { ResourceAccess } from '../security/resource-access.js';
import { acceptQueryParameters } from './query-parameters.js';
import { COUNT_BOUND, readQueryOf } from './read-query.js';
import { DocumentsService } from '../documents/documents.service.js';

/**
 * `@resources`, `@tables`, `@tables/<name>`, `@schema/<prefix>`, `@views`, `@views/<name>`, `@procedures`, `@functions` and
 * `@docs`: what this API serves (api-contract §1), in the shapes LAC's clients read. Every one needs a role
 * with meta access; none depends on the caller's other grants. `@count/<resource>` is here for its path (before
 * `<resource>/<key>`), not for its grant: it needs READ on the resource, as a list does.
 */
@Controller('rest/:account/:project/:version')
export class MetaController {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly custom: CustomResourceRegistry,
    private readonly docs: OpenApiDocs,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly rules: RuleBank,
    private readonly rows: DocumentsService,
    private readonly settings: ApiSettings,
    private readonly extensions: ExtensionDirectory,
    private readonly functionRegistry: FunctionRegistry,
  ) {}

  /**
   * The OpenAPI 3.1 document generated at boot, with the API base the client used as its server; with
   * `format=swagger2` the same API in Swagger 2.0 (`toSwagger2`), for tools that read nothing newer.
   */
  @Get('@docs')
  @RequiresAccess('META')
  @Public((config) => config.api.docsPublic)
  openApi(@Req() req: unknown, @Param('version') version: string, @Query('format') format: unknown): OpenApiDocument | JsonObject {
    if (format !== undefined && format !== 'openapi' && format !== 'swagger2') {
      throw new ApiError(
        ErrorCode.BAD_REQUEST,
        'Query parameter "format" may be openapi (OpenAPI 3.1, the default) or swagger2 (Swagger 2.0).',
      );
    }
    const document = this.docs.for(version, apiBaseUrl(req, this.config.http));
    if (!document) throw new ApiError(ErrorCode.NOT_FOUND, 'No such API version.');
    return format === 'swagger2' ? toSwagger2(document) : document;
  }

  @Get('@resources')
  @RequiresAccess('META')
  resources(@Req() req: unknown, @Param('version') version: string, @Query() query: Record<string, unknown>): unknown[] {
    const base = this.base(req);
    return this.page(req, query, [
      ...this.registry.resources.map((r) => describeTableResource(base, this.registry, r, version)),
      ...this.custom.resourcesOf(version).map((r) => describeCustomResource(base, this.registry, r, version)),
      ...this.extensions.resources().map((r) => describeExtensionResource(base, this.registry, r, version)),
    ]);
  }

  @Get('@tables')
  @RequiresAccess('META')
  tables(@Req() req: unknown, @Query() query: Record<string, unknown>): unknown[] {
    return this.page(req, query, this.allTables(this.base(req)));
  }

  /** One table by plain or prefixed name; `*` is every table (as in LAC). */
  @Get('@tables/:name')
  @RequiresAccess('META')
  oneTable(@Req() req: unknown, @Param('name') name: string, @Query() query: Record<string, unknown>): unknown {
    return this.describeOne(req, name, query, false);
  }

  /**
   * How many rows of a table resource a list with the same `filter` and `sysfilter` would page through for this
   * caller: its roles' READ row filters apply as they do to the list, so it counts only rows the caller could
   * read, and filters on columns it may not read are refused (400 / 4003) as in a list. Counted up to
   * `COUNT_BOUND` rows: `{"count": n, "more": false}`, or `{"count": COUNT_BOUND, "more": true}` past it.
   */
  @Get('@count/:resource')
  @RequiresAccess('READ')
  async count(
    @Param('resource') name: string,
    @Param('version') version: string,
    @CallerAccess() access: ResourceAccess,
    @Query() query: Record<string, unknown>,
  ): Promise<{ count: number; more: boolean }> {
    if (this.custom.size > 0 && this.custom.find(name, version)) {
      throw new ApiError(ErrorCode.BAD_REQUEST, `@count counts the rows of a table resource; ${name.slice(0, 100)} is a custom resource.`);
    }
    acceptQueryParameters(query, 'count');
    const count = await this.rows.count(access, readQueryOf(query, this.settings), COUNT_BOUND);
    return { count, more: count >= COUNT_BOUND };
  }

  /** One view by plain or prefixed name; `*` is every view. */
  @Get('@views/:name')
  @RequiresAccess('META')
  oneView(@Req() req: unknown, @Param('name') name: string, @Query() query: Record<string, unknown>): unknown {
    return this.describeOne(req, name, query, true);
  }

  /** The data source's tables, columns, keys and relations in one document (LAC's `@schema/<prefix>`). */
  @Get('@schema/:prefix')
  @RequiresAccess('META')
  schema(@Req() req: unknown, @Param('prefix') prefix: string, @Query() query: Record<string, unknown>): unknown[] {
    if (prefix.toLowerCase() !== this.registry.prefix.toLowerCase()) {
      throw new ApiError(ErrorCode.NOT_FOUND, `No such data source prefix: ${prefix.slice(0, 100)}`);
    }
    // LAC's REST Lab form names the project (`?projectId=123`); this API has one.
    const { projectId: _project, ...rest } = query;
    return this.page(req, rest, this.allTables(this.base(req)));
  }

  /** The views the project serves (read-only resources), in the shape of `@tables`. */
  @Get('@views')
  @RequiresAccess('META')
  views(@Req() req: unknown, @Query() query: Record<string, unknown>): unknown[] {
    return this.page(req, query, this.all(this.base(req), true));
  }

  /** The stored procedures and functions the project serves on this database (none on SQLite). */
  @Get('@procedures')
  @RequiresAccess('META')
  procedures(@Req() req: unknown, @Param('version') version: string, @Query() query: Record<string, unknown>): unknown[] {
    const base = this.base(req);
    const procedures = this.extensions.resources().filter((r) => r.type === 'StoredProcedure');
    return this.page(
      req,
      query,
      procedures.map((r) => describeExtensionResource(base, this.registry, r, version)),
    );
  }

  /** The project's row and resource functions of tables (function resources are in `@resources`). */
  @Get('@functions')
  @RequiresAccess('META')
  functions(@Req() req: unknown, @Query() query: Record<string, unknown>): unknown[] {
    const base = this.base(req);
    return this.page(
      req,
      query,
      this.functionRegistry.functions.map((f) => describeFunction(base, f)),
    );
  }

  /** The entries in the order and page the query asks (sysorder, pagesize, offset). */
  private page(req: unknown, query: Record<string, unknown>, entries: ReadonlyArray<Record<string, unknown>>): unknown[] {
    return pageOfMetaList(entries, query, (offset) => this.nextBatch(req, offset));
  }

  /** The same request with the next offset, without any `auth` parameter (as the resources' next_batch links). */
  private nextBatch(req: unknown, offset: number): string {
    return nextBatchLink(requestUrlWithoutAuth(req, this.config.http), offset);
  }

  private allTables(base: string): Array<Record<string, unknown>> {
    return this.all(base, false);
  }

  /** Every table (`views` false) or every view. */
  private all(base: string, views: boolean): Array<Record<string, unknown>> {
    return this.registry.resources.filter((r) => r.view === views).map((r) => this.describe(base, r));
  }

  /** `@tables/<name>` or `@views/<name>`: a name of the other kind is no such table (or view), 404 / 4040. */
  private describeOne(req: unknown, name: string, query: Record<string, unknown>, view: boolean): unknown {
    const base = this.base(req);
    if (name === '*') return this.page(req, query, this.all(base, view));
    acceptOneEntryQuery(query);
    const resource = this.registry.get(name);
    if (resource.view !== view) {
      throw new ApiError(
        ErrorCode.NOT_FOUND,
        `${resource.name} is a ${resource.view ? 'view: see @views' : 'table: see @tables'}/${encodeURIComponent(resource.name)}`,
      );
    }
    return this.describe(base, resource);
  }

  /** One table's or view's entry, its columns marked `derived` where a rule computes them. */
  private describe(base: string, resource: Resource): Record<string, unknown> {
    return describeTable(base, this.registry, resource, this.rules.for(resource).derived);
  }

  private base(req: unknown): string {
    return apiBaseUrl(req, this.config.http);
  }
}
