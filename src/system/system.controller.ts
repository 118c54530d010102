import { Controller, Get, Inject } from '@nestjs/common';
import { Public } from '../common/public.decorator.js';
import { ApiSettings } from '../config/api-settings.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/app-config.js';
import { TESSERA_VERSION } from '../config/version.js';

/** Public and informational system endpoints under the API base (api-contract §1). */
@Controller('rest/:account/:project/:version')
export class SystemController {
  private readonly startedAt = Date.now();

  constructor(
    private readonly settings: ApiSettings,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Public()
  @Get('@heartbeat')
  heartbeat(): { status: string } {
    return { status: 'OK' };
  }

  @Public()
  @Get('@license')
  license(): { company: string; license_type: string; license_expiration: string } {
    // The Apache License 2.0 is perpetual: LAC's clients print this field ("License will expire: never").
    return { company: 'Tessera contributors', license_type: 'Apache-2.0', license_expiration: 'never' };
  }

  @Get('@serverinfo')
  serverInfo(): Record<string, unknown> {
    return {
      name: 'Tessera',
      version: TESSERA_VERSION,
      account: this.settings.account,
      project: this.settings.project,
      apiVersions: this.settings.versions,
      databaseType: this.config.database.kind,
      httpAdapter: this.config.http.adapter,
      uptimeSeconds: Math.floor((Date.now() - this.startedAt) / 1000),
      serverTime: new Date().toISOString(),
    };
  }
}
