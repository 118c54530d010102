import { Module, type DynamicModule } from '@nestjs/common';
import { ExtensionAnswersModule } from './extension-answers.module.js';
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
      imports: [ExtensionAnswersModule],
      controllers: declared ? [ExtensionRoutesController] : [],
    };
  }
}
