import { Controller, Get, Inject, Param, Req } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { Public } from '../common/public.decorator.js';
import { apiBaseUrl } from '../common/request-context.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { RequiresAccess } from '../security/requires-access.decorator.js';
import { OpenApiDocs } from './openapi/openapi-document.js';
import type { OpenApiDocument } from '../common/openapi/openapi-types.js';
import type { Resource, ResourceColumn } from '../data/resource-registry.js';
import { ResourceRegistry } from '../data/resource-registry.js';

function describeColumn(column: ResourceColumn): Record<string, unknown> {
  return {
    name: column.name,
    type: column.kind,
    size: column.length ?? null,
    precision: column.precision ?? null,
    scale: column.scale ?? null,
    nullable: column.nullable,
    generated: column.generated,
    primaryKey: column.primary,
  };
}

/** `@resources`, `@tables`, `@tables/<name>` and `@docs`: what this API serves (api-contract §1). */
@Controller('rest/:account/:project/:version')
export class MetaController {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly docs: OpenApiDocs,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The OpenAPI 3.1 document generated at boot, with the API base the client used as its server. */
  @Get('@docs')
  @RequiresAccess('META')
  @Public((config) => config.api.docsPublic)
  openApi(@Req() req: unknown, @Param('version') version: string): OpenApiDocument {
    const document = this.docs.for(version, apiBaseUrl(req, this.config.http));
    if (!document) throw new ApiError(ErrorCode.NOT_FOUND, 'No such API version.');
    return document;
  }

  @Get('@resources')
  @RequiresAccess('META')
  resources(): unknown[] {
    return this.registry.resources.map((r) => ({
      name: r.name,
      prefixedName: `${this.registry.prefix}:${r.tableName}`,
      table: r.tableName,
      primaryKey: r.primaryKey.map((c) => c.name),
    }));
  }

  @Get('@tables')
  @RequiresAccess('META')
  tables(): unknown[] {
    return this.registry.resources.map((r) => this.table(r));
  }

  @Get('@tables/:name')
  @RequiresAccess('META')
  oneTable(@Param('name') name: string): unknown {
    return this.table(this.registry.get(name));
  }

  private table(resource: Resource): Record<string, unknown> {
    return {
      name: resource.tableName,
      columns: resource.columns.map(describeColumn),
      primaryKey: resource.primaryKey.map((c) => c.name),
      parents: resource.parents.map((p) => ({ name: p.name, parent: p.parent, columns: p.columns })),
      children: resource.children.map((c) => ({ name: c.name, child: c.child, via: c.via })),
    };
  }
}
