import { SetMetadata } from '@nestjs/common';
import type { Operation } from './role-definition.js';

export const REQUIRED_ACCESS = 'tessera:requiredAccess';

/**
 * The operation a resource endpoint performs on its `:resource`; RolesGuard refuses tokens whose roles grant it nowhere.
 * `EACH_OBJECT`: an endpoint without `:resource` (the API root) whose objects name their resources, each judged on its own.
 */
export const RequiresAccess = (operation: Operation | 'META' | 'EACH_OBJECT'): MethodDecorator => SetMetadata(REQUIRED_ACCESS, operation);
