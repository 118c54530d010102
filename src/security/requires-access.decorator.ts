import { SetMetadata } from '@nestjs/common';
import type { Operation } from './role-definition.js';

export const REQUIRED_ACCESS = 'tessera:requiredAccess';

/** The operation a resource endpoint performs on its `:resource`; RolesGuard refuses tokens whose roles grant it nowhere. */
export const RequiresAccess = (operation: Operation | 'META'): MethodDecorator => SetMetadata(REQUIRED_ACCESS, operation);
