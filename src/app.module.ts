import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { AdminGuard } from './admin/admin.guard.js';
import { AdminModule } from './admin/admin.module.js';
import { ApiKeyGuard } from './auth/api-key.guard.js';
import { AuthModule } from './auth/auth.module.js';
import { CoreModule, type AppParts } from './core.module.js';
import { DataModule } from './data/data.module.js';
import { AllExceptionsFilter } from './http/all-exceptions.filter.js';
import { ApiScopeGuard } from './http/api-scope.guard.js';
import { CustomResourcesModule } from './documents/levels/custom-resources.module.js';
import { ResourcesModule } from './resources/resources.module.js';
import { ExtensionRoutesModule } from './resources/extensions/extension-routes.module.js';
import { ExtensionDirectoryModule } from './extensions/extension-directory.module.js';
import { RolesGuard } from './security/roles.guard.js';
import { SecurityModule } from './security/security.module.js';
import { SystemModule } from './system/system.module.js';
import { TokensModule } from './tokens/tokens.module.js';
import { UsersAdminModule } from './users/users-admin.module.js';

/**
 * The composition root: the engine with one API project. CoreModule (global) provides what
 * every module uses and hands the project's parts to the modules that take them; each feature
 * module imports the modules it uses, so Nest's module graph (`npm run graph`) shows the same
 * arrows as the dependency rules. Here are only what no feature owns: the global guards and the
 * exception filter, and the one port the root wires (the users endpoints get the tokens module).
 */
@Module({})
export class AppModule {
  static forRoot(options: AppParts): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(options),
        DataModule,
        SecurityModule,
        CustomResourcesModule,
        TokensModule,
        UsersAdminModule.register({ imports: [TokensModule] }),
        SystemModule,
        AuthModule,
        AdminModule,
        // The project's extensions: RolesGuard asks them which one a request on a resource route addresses (ExtensionRoutes).
        ExtensionDirectoryModule,
        // Last: its `:resource` routes must not shadow the `@…` system endpoints on Express.
        ResourcesModule,
        ExtensionRoutesModule.when((options.project.functions?.length ?? 0) + (options.project.functionResources?.length ?? 0) > 0),
      ],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        // Global guards run in this order: an unknown API is a 404 before any token is asked for,
        // and roles are judged once the token (an API token, or an admin token) is known.
        { provide: APP_GUARD, useClass: ApiScopeGuard },
        { provide: APP_GUARD, useExisting: ApiKeyGuard },
        { provide: APP_GUARD, useExisting: AdminGuard },
        // Here, not in SecurityModule: it also asks the custom resources which table a level is (ResourcePaths),
        // and the extensions which one a request addresses (ExtensionRoutes).
        { provide: APP_GUARD, useClass: RolesGuard },
      ],
    };
  }
}
