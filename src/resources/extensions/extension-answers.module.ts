import { Module } from '@nestjs/common';
import { DataModule } from '../../data/data.module.js';
import { ApiEventsModule } from '../../extensions/events/api-events.module.js';
import { FunctionsModule } from '../../extensions/functions/functions.module.js';
import { SqlEndpointsModule } from '../../extensions/sql-endpoints.module.js';
import { ExtensionDispatch } from './extension-dispatch.js';
import { SqlEndpointAnswers } from './sql-endpoint-answers.js';

/** How the resource routes answer a request RolesGuard admitted to an extension (`ExtensionDispatch`), whichever route it came by. */
@Module({
  imports: [DataModule, FunctionsModule, SqlEndpointsModule, ApiEventsModule],
  providers: [ExtensionDispatch, SqlEndpointAnswers],
  exports: [ExtensionDispatch],
})
export class ExtensionAnswersModule {}
