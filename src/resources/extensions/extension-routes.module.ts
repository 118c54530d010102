import { Module, type DynamicModule } from '@nestjs/common';
import { DataModule } from '../../data/data.module.js';
import { FunctionsModule } from '../../extensions/functions/functions.module.js';
import { ExtensionDispatch } from './extension-dispatch.js';
import { ExtensionRoutesController } from './extension-routes.controller.js';

/**
 * The routes only extensions answer (`ExtensionRoutesController`), mounted after the resources when the project
 * declares a function or a function resource: without any, those URLs stay no endpoint at all, as before.
 */
@Module({})
export class ExtensionRoutesModule {
  static when(declared: boolean): DynamicModule {
    return {
      module: ExtensionRoutesModule,
      imports: [DataModule, FunctionsModule],
      controllers: declared ? [ExtensionRoutesController] : [],
      providers: [ExtensionDispatch],
    };
  }
}
