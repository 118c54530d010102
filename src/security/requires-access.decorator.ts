import { applyDecorators, SetMetadata } from '@nestjs/common';
import { AdminRoleRequired, IS_ADMIN_API } from '../admin-api/admin-endpoint.decorator.js';
import type { Operation } from './role-definition.js';

export const REQUIRED_ACCESS = 'tessera:requiredAccess';

/**
 * The operation a resource endpoint performs on its `:resource`; RolesGuard refuses tokens whose roles grant it nowhere.
 * `EACH_OBJECT`: an endpoint without `:resource` (the API root) whose objects name their resources, each judged on its own.
 * `EXTENSION`: a route only the project's functions answer (`POST <table>/<key>/<function>`): RolesGuard judges the
 * function, and answers 404 / 4040 when the project declares none by that name.
 */
export const RequiresAccess = (operation: Operation | 'META' | 'EACH_OBJECT' | 'EXTENSION'): MethodDecorator =>
  SetMetadata(REQUIRED_ACCESS, operation);

/**
 * An endpoint under the API base that only operators read (`@perf`): it takes an admin token (`Authorization: Bearer
 * <key>` from the admin API's login, as the console holds) of an `auditor` or an `admin`, not an API token, whatever
 * its roles. AdminGuard checks the token and RolesGuard the admin's role, as on the admin API's own endpoints.
 */
export const RequiresAdminToken = (): MethodDecorator => applyDecorators(SetMetadata(IS_ADMIN_API, true), AdminRoleRequired('auditor'));
