import { applyDecorators, SetMetadata, UsePipes, ValidationPipe } from '@nestjs/common';
import type { AdminRole } from './admin-principal.js';

export const IS_ADMIN_API = 'tessera:isAdminApi';
export const REQUIRED_ADMIN_ROLE = 'tessera:requiredAdminRole';

/**
 * Every admin API controller (under /admin/v1): guarded by admin tokens instead of API tokens
 * (the admin guard authenticates them, and the API's token guard leaves these endpoints
 * alone, so an API token never opens them), with bodies and queries checked against their DTO,
 * unknown fields refused (400 / 4000).
 *
 * Every endpoint needs the `admin` role unless it says otherwise with `@AdminRoleRequired`:
 * an endpoint somebody forgets to mark is closed to auditors, not open to them.
 */
export const AdminEndpoint = (): ClassDecorator =>
  applyDecorators(
    SetMetadata(IS_ADMIN_API, true),
    UsePipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, transform: true })),
  );

/** The least admin role an admin endpoint (or a whole admin controller) needs: `auditor` opens it to read-only accounts. */
export const AdminRoleRequired = (role: AdminRole): MethodDecorator & ClassDecorator => SetMetadata(REQUIRED_ADMIN_ROLE, role);
