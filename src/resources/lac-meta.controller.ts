import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { ApiSettings } from '../config/api-settings.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { ResourceRegistry } from '../data/resource-registry.js';
import { CustomResourceRegistry } from '../documents/levels/custom-resource-registry.js';
import { apiBaseUrl, nextBatchLink, requestUrlWithoutAuth } from '../http/request-context.js';
import { RuleBank } from '../logic/rule-bank.js';
import { RequiresAccess, RequiresAdminToken } from '../security/requires-access.decorator.js';
import { apiOptionsOf, type ApiOption } from './meta/api-options.js';
import { pageOfMetaList, refuseOtherParameters } from './meta/meta-list-query.js';
import { describeCustomResource, describeExtensionResource, describeTableResource } from './meta/resource-description.js';
import { ExtensionDirectory } from '../extensions/extension-directory.js';
import { ResourcePerf, type ResourcePerfEntry } from './perf/resource-perf.js';

/**
 * The rest of LAC's meta endpoints (issue 27, item 4): `@resources/<ident>`, `@data_sources`, `@apioptions`, `@rules`
 * (a role with meta access, as `@resources`), and `@perf` (an admin token: operators' figures). Before
 * ResourcesController, so none is taken for `<resource>/<key>`.
 */
@Controller('rest/:account/:project/:version')
export class LacMetaController {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly custom: CustomResourceRegistry,
    private readonly rules: RuleBank,
    private readonly settings: ApiSettings,
    private readonly perf: ResourcePerf,
    private readonly extensions: ExtensionDirectory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * One resource as `@resources` lists it, by its name (a table's plain or prefixed name, a custom resource's name;
   * any case), with its attributes: LAC's `@resources/<ident>`. Tessera's resources have names, not numbers.
   */
  @Get('@resources/:ident')
  @RequiresAccess('META')
  resource(
    @Req() req: unknown,
    @Param('ident') ident: string,
    @Param('version') version: string,
    @Query() query: Record<string, unknown>,
  ): unknown {
    refuseOtherParameters(query);
    const base = apiBaseUrl(req, this.config.http);
    const table = this.registry.find(ident);
    if (table) {
      return {
        ...describeTableResource(base, this.registry, table, version),
        attributes: table.columns.map((c) => ({ name: c.name, column_name: c.name })),
      };
    }
    const level = this.custom.size > 0 ? this.custom.find(ident, version) : undefined;
    if (level && level.kind === 'root') {
      const resource = level.resource;
      return {
        ...describeCustomResource(base, this.registry, resource, version),
        attributes: resource.root.attributes.map((a) => ({ name: a.name, column_name: a.column.name })),
        subresources: resource.root.subLevels.map((l) => l.name),
      };
    }
    // A function resource, SQL resource or procedure: found here too (LAC's `describe resource` asks by any name).
    const extension = this.extensions.resources().find((r) => r.name.toLowerCase() === ident.toLowerCase());
    if (extension) {
      return {
        ...describeExtensionResource(base, this.registry, extension, version),
        attributes: extension.attributes.map((c) => ({ name: c, column_name: c })),
      };
    }
    throw new ApiError(ErrorCode.NOT_FOUND, `No such resource: ${ident.slice(0, 100)}`);
  }

  /**
   * The project's one data source: its prefix (`<prefix>:<table>` names and `@schema/<prefix>`) and database kind.
   * Never its URL, host, user or password.
   */
  @Get('@data_sources')
  @RequiresAccess('META')
  dataSources(@Req() req: unknown, @Query() query: Record<string, unknown>): unknown[] {
    const views = this.registry.resources.filter((r) => r.view).length;
    return this.page(req, query, [
      {
        name: this.registry.prefix,
        ident: 1,
        prefix: this.registry.prefix,
        databaseType: this.config.database.kind,
        active: true,
        schema_editable: false,
        comments: null,
        tables: this.registry.resources.length - views,
        views,
      },
    ]);
  }

  /** The API's options in LAC's shape: an object keyed by each option's `ident`, values as text. */
  @Get('@apioptions')
  @RequiresAccess('META')
  apiOptions(@Query() query: Record<string, unknown>): Record<string, ApiOption> {
    refuseOtherParameters(query);
    return Object.fromEntries(apiOptionsOf(this.settings).map((option) => [String(option.ident), option]));
  }

  /**
   * The rule bank: each rule's place in the project's list (`ident`), kind, entity, attribute and name, with the fields
   * LAC's SDK prints (`entityName`, `columnName`, `bestName`). Never a rule's code or message.
   */
  @Get('@rules')
  @RequiresAccess('META')
  ruleList(@Req() req: unknown, @Query() query: Record<string, unknown>): unknown[] {
    return this.page(
      req,
      query,
      this.rules.list().map((rule) => ({
        ...rule,
        entityName: rule.entity,
        columnName: rule.attribute,
        bestName: rule.name,
      })),
    );
  }

  /**
   * Requests per resource since this process started, with their times: for operators (an admin token, `auditor` or
   * `admin`), not for API tokens.
   */
  @Get('@perf')
  @RequiresAdminToken()
  perfFigures(@Query() query: Record<string, unknown>): {
    since: string;
    uptimeSeconds: number;
    resources: ResourcePerfEntry[];
  } {
    refuseOtherParameters(query);
    return {
      since: this.perf.since.toISOString(),
      uptimeSeconds: Math.floor((Date.now() - this.perf.since.getTime()) / 1000),
      resources: this.perf.entries(),
    };
  }

  private page(req: unknown, query: Record<string, unknown>, entries: ReadonlyArray<Record<string, unknown>>): unknown[] {
    return pageOfMetaList(entries, query, (offset) => nextBatchLink(requestUrlWithoutAuth(req, this.config.http), offset));
  }
}
