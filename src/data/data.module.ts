import { Module, type DynamicModule } from '@nestjs/common';
import { ApiSettings } from '../common/api-settings.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { loadChecksumSecret } from '../database/checksum-secret.js';
import { Database } from '../database/database.js';
import { RowChecksum } from './checksum.js';
import { ResourceRegistry } from './resource-registry.js';
import { rewrittenTables } from './rewritten-tables.js';

/**
 * The data layer's boot-time pieces, for everything above it: the resource registry built from
 * the project's entities, and the row checksum with its key (read or generated, and derived,
 * once at boot: the request path only computes HMACs).
 */
@Module({})
export class DataModule {
  static forRoot(project: { entities: Function[] }): DynamicModule {
    return {
      module: DataModule,
      global: true,
      providers: [
        {
          provide: ResourceRegistry,
          useFactory: async (database: Database, settings: ApiSettings) =>
            new ResourceRegistry(database, project.entities, settings.resourcePrefix, await rewrittenTables(database)),
          inject: [Database, ApiSettings],
        },
        {
          provide: RowChecksum,
          useFactory: async (database: Database, config: AppConfig) =>
            await RowChecksum.fromSecret(await loadChecksumSecret(database, config.api.checksumSecret)),
          inject: [Database, APP_CONFIG],
        },
      ],
      exports: [ResourceRegistry, RowChecksum],
    };
  }
}
