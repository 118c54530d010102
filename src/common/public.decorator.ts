import { SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { AppConfig } from '../config/app-config.js';
import { endpointMetadata } from './endpoint-metadata.js';

export const IS_PUBLIC = 'tessera:isPublic';

/** Decides from the configuration whether an endpoint is public, e.g. `(config) => config.api.docsPublic`. */
export type PublicWhen = (config: AppConfig) => boolean;

/**
 * Marks an endpoint that needs no auth token (api-contract §1 system endpoints). With `when`,
 * it is public only while the configuration says so, and guarded like any other otherwise.
 */
export const Public = (when?: PublicWhen): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, when ?? true);

/** True when the handler (or its controller) is `@Public()` under this configuration; what every guard asks. */
export function isPublicEndpoint(reflector: Reflector, context: ExecutionContext, config: AppConfig): boolean {
  const mark = endpointMetadata<true | PublicWhen>(reflector, IS_PUBLIC, context);
  return mark === true || (typeof mark === 'function' && mark(config));
}
