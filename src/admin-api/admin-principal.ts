import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { requestSlot } from '../common/request-slot.js';

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

const admins = requestSlot<AdminPrincipal>('tesseraAdmin');

/** Attaches the admin to the request (the admin guard does). */
export const setAdmin = admins.set;

/** The admin of a request that passed the admin guard; undefined elsewhere. */
export const adminOf = admins.get;

/** The user name of the admin behind the request's admin token, for the audit trail. */
export const CurrentAdmin = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string => adminOf(context.switchToHttp().getRequest())!.username,
);
