import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { rawRequestOf } from '../common/request-context.js';

/** `admin` may do everything in the admin API; `auditor` may only read (lists, the audit trail, the provider). */
export type AdminRole = 'admin' | 'auditor';

export const ADMIN_ROLES: readonly AdminRole[] = ['admin', 'auditor'];

/** The admin account behind a request's admin token, as it is now (its role is read with the token). */
export interface AdminPrincipal {
  readonly username: string;
  readonly role: AdminRole;
  /** The admin token the request came with (its row id): the admin's own password change keeps it and ends the others. */
  readonly tokenId: number;
}

const ADMIN = Symbol('tesseraAdmin');

type WithAdmin = { [ADMIN]?: AdminPrincipal };

/** Attaches the admin to the request (on the raw Node request, so both adapters share it). */
export function setAdmin(request: unknown, admin: AdminPrincipal): void {
  (rawRequestOf(request) as WithAdmin)[ADMIN] = admin;
}

/** The admin of a request that passed the admin guard; undefined elsewhere. */
export function adminOf(request: unknown): AdminPrincipal | undefined {
  return (rawRequestOf(request) as WithAdmin)[ADMIN];
}

/** The user name of the admin behind the request's admin token, for the audit trail. */
export const CurrentAdmin = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string => adminOf(context.switchToHttp().getRequest())!.username,
);
