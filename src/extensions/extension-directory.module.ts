import { Module } from '@nestjs/common';
import { ExtensionRoutes } from '../security/extension-routes.js';
import { ExtensionDirectory } from './extension-directory.js';
import { FunctionRegistry } from './functions/function-registry.js';
import { FunctionsModule } from './functions/functions.module.js';
import { SqlEndpoints } from './sql-endpoints.js';
import { SqlEndpointsModule } from './sql-endpoints.module.js';

/**
 * Every extension of the project in one directory (`ExtensionDirectory`): RolesGuard asks it, as `ExtensionRoutes`,
 * which one a request addresses; the meta endpoints and the events ask it what there is.
 */
@Module({
  imports: [FunctionsModule, SqlEndpointsModule],
  providers: [
    {
      provide: ExtensionDirectory,
      useFactory: (functions: FunctionRegistry, sql: SqlEndpoints) => new ExtensionDirectory(functions, sql),
      inject: [FunctionRegistry, SqlEndpoints],
    },
    { provide: ExtensionRoutes, useExisting: ExtensionDirectory },
  ],
  exports: [ExtensionDirectory, ExtensionRoutes],
})
export class ExtensionDirectoryModule {}
