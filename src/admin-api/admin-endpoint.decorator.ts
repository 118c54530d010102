import { applyDecorators, SetMetadata, UsePipes, ValidationPipe } from '@nestjs/common';
import { ref, type JsonObject } from '../common/openapi/openapi-types.js';
import type { AdminRole } from './admin-principal.js';

export const IS_ADMIN_API = 'tessera:isAdminApi';
export const REQUIRED_ADMIN_ROLE = 'tessera:requiredAdminRole';
export const ADMIN_OPERATION = 'tessera:adminOperation';

/** What an admin endpoint's route and DTOs cannot say: how the OpenAPI document describes it, and who may call it. */
export interface AdminOperationNotes {
  summary: string;
  description?: string;
  /** The answer's schema (none for a 204): `schema('User')`, `pageOf('User')`, `listOf('Role')`, or one written out. */
  answer?: JsonObject;
  /** Error statuses this endpoint adds to those of its kind: 404 for a named thing that is not there, 409 for a conflict. */
  errors?: number[];
  /** The least admin role it needs, when not `admin` (see `AdminRoleRequired`). */
  role?: AdminRole;
}

/**
 * One admin endpoint, in one place: its notes for the admin OpenAPI document and its role. With
 * the route decorator and the controller's `@AdminEndpoint()`, a new endpoint is documented,
 * role-checked and counted among the admin API's with nothing written elsewhere (a handler
 * without it fails the admin OpenAPI test).
 */
export const AdminOperation = (notes: AdminOperationNotes): MethodDecorator =>
  applyDecorators(SetMetadata(ADMIN_OPERATION, notes), ...(notes.role ? [AdminRoleRequired(notes.role)] : []));

/** A schema of the admin document's answers (see admin-schemas.ts), by name. */
export const schema = (name: string): JsonObject => ref('schemas', name);

/** A page of an admin list (see page.ts) of one answer schema. */
export function pageOf(item: string): JsonObject {
  const properties: Record<string, JsonObject> = {
    items: { type: 'array', items: schema(item) },
    offset: { type: 'integer', minimum: 0 },
    pagesize: { type: 'integer', minimum: 1 },
    total: { type: 'integer', minimum: 0, description: 'How many there are in all.' },
  };
  return { type: 'object', description: `A page of ${item} items.`, required: Object.keys(properties), properties };
}

/** A whole list of one answer schema. */
export const listOf = (item: string): JsonObject => ({ type: 'array', items: schema(item) });

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
