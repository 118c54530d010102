import { Module } from '@nestjs/common';
import { DataModule } from '../../data/data.module.js';
import { ResourceRegistry } from '../../data/resource-registry.js';
import { DocumentsModule } from '../../documents/documents.module.js';
import { CustomResourceRegistry } from '../../documents/levels/custom-resource-registry.js';
import type { RolesDefinition } from '../../security/role-definition.js';
import { PROJECT_ROLES, SecurityModule } from '../../security/security.module.js';
import { ExtensionsModule } from '../extensions.module.js';
import type { FunctionDefinition, FunctionResourceDefinition } from './function-definition.js';
import { FunctionCalls } from './function-calls.js';
import { FunctionRegistry } from './function-registry.js';

/** Injection tokens of the project's functions and function resources (ProjectModule provides them). */
export const PROJECT_FUNCTIONS = Symbol('PROJECT_FUNCTIONS');
export const PROJECT_FUNCTION_RESOURCES = Symbol('PROJECT_FUNCTION_RESOURCES');

/**
 * The project's functions and function resources: checked at boot (`FunctionRegistry`, which RolesGuard asks through
 * the `ExtensionDirectory` which extension a request addresses) and run (`FunctionCalls`).
 */
@Module({
  imports: [DataModule, SecurityModule, DocumentsModule, ExtensionsModule],
  providers: [
    {
      provide: FunctionRegistry,
      useFactory: (
        tables: ResourceRegistry,
        custom: CustomResourceRegistry,
        roles: RolesDefinition,
        functions: FunctionDefinition[] | undefined,
        resources: FunctionResourceDefinition[] | undefined,
      ) => new FunctionRegistry(functions ?? [], resources ?? [], tables, custom, roles),
      inject: [
        ResourceRegistry,
        CustomResourceRegistry,
        PROJECT_ROLES,
        { token: PROJECT_FUNCTIONS, optional: true },
        { token: PROJECT_FUNCTION_RESOURCES, optional: true },
      ],
    },
    FunctionCalls,
  ],
  exports: [FunctionRegistry, FunctionCalls],
})
export class FunctionsModule {}
