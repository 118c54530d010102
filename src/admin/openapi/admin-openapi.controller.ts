import { Controller, Get, Inject, Req, type OnModuleInit, type Type } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { AdminEndpoint, AdminOperation } from '../../admin-api/admin-endpoint.decorator.js';
import { Public } from '../../common/public.decorator.js';
import { rawRequestOf } from '../../common/request-slot.js';
import { requestOrigin } from '../../http/request-context.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { OpenApiDocument } from '../../common/openapi/openapi-types.js';
import { buildAdminOpenApiDocument } from './admin-openapi-document.js';
import { adminRoutesOf } from './admin-routes.js';

/**
 * The admin API's OpenAPI 3.1 document, built once at boot from every `@AdminEndpoint()`
 * controller the application registered, whichever module holds it. Public: it describes the
 * code, the same for every installation, and holds nothing of this one (no role, user, setting
 * or version) but the server the client reached it at (PUBLIC_URL when set, as `@docs` does);
 * the console shows it before anyone signs in.
 */
@Controller('admin/v1')
@AdminEndpoint()
export class AdminOpenApiController implements OnModuleInit {
  private document?: OpenApiDocument;

  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const controllers = this.discovery
      .getControllers()
      .map((wrapper) => wrapper.metatype)
      .filter((metatype): metatype is Type => typeof metatype === 'function');
    this.document = buildAdminOpenApiDocument(adminRoutesOf(controllers));
  }

  @Public()
  @AdminOperation({
    summary: 'This document',
    description: 'The OpenAPI 3.1 description of the admin API. It is the same for every installation of this Tessera version.',
    answer: { type: 'object', description: 'An OpenAPI 3.1 document.' },
  })
  @Get('openapi.json')
  openApi(@Req() request: unknown): OpenApiDocument {
    const { openapi, info, ...rest } = this.document!;
    return { openapi, info, servers: [{ url: requestOrigin(rawRequestOf(request), this.config.http) }], ...rest };
  }
}
