import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { ApiSettings } from '../config/api-settings.js';
import { APP_CONFIG } from '../config/config.module.js';
import { loadChecksumSecret } from '../database/checksum-secret.js';
import { Database } from '../database/database.js';
import { RowChecksum } from './checksum.js';
import { ResourceRegistry } from './resource-registry.js';
import { rewrittenTables } from './rewritten-tables.js';

/** Injection token of the project's entity classes (ProjectModule provides it). */
export const PROJECT_ENTITIES = Symbol('PROJECT_ENTITIES');

/**
 * The data layer's boot-time pieces, for everything above it: the resource registry built from
 * the project's entities, and the row checksum with its key (read or generated, and derived,
 * once at boot: the request path only computes HMACs).
 */
@Module({
  providers: [
    {
      provide: ResourceRegistry,
      useFactory: async (database: Database, settings: ApiSettings, entities: Function[]) =>
        new ResourceRegistry(database, entities, settings.resourcePrefix, await rewrittenTables(database)),
      inject: [Database, ApiSettings, PROJECT_ENTITIES],
    },
    {
      provide: RowChecksum,
      useFactory: async (database: Database, config: AppConfig) =>
        await RowChecksum.fromSecret(await loadChecksumSecret(database, config.api.checksumSecret)),
      inject: [Database, APP_CONFIG],
    },
  ],
  exports: [ResourceRegistry, RowChecksum],
})
export class DataModule {}
