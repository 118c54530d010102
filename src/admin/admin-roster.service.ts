import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AdminRole } from '../admin-api/admin-principal.js';
import { ApiError } from '../common/api-error.js';
import { Clock } from '../common/clock.js';
import { ErrorCode } from '../common/error-codes.js';
import { Database, type DatabaseScope } from '../database/database.js';
import { AdminAccount } from './admin-account.entity.js';
import { AdminToken } from './admin-token.entity.js';

/** A new admin account, its password already hashed by `PasswordHasher.hashNewPassword`. */
export interface NewAdminAccount {
  username: string;
  passwordHash: string;
  role: AdminRole;
}

/** The signed-in admin's own password change, checked by `AdminAccountsService.hashOwnNewPassword`. */
export interface OwnPasswordWrite {
  username: string;
  /** The hash the current password matched: the change is written only if it is still the account's. */
  checkedHash: string;
  passwordHash: string;
  /** The token the change came with: it stays, the account's other tokens end. */
  keepTokenId: number;
}

/**
 * The admin accounts as operators manage them: list, create, change a role, set a password,
 * delete. Changes run in the caller's transaction (the audit trail's), and always leave at
 * least one account with the role `admin` (409 / 4094 otherwise). Slow work (bcrypt) comes
 * before the transaction, in `PasswordHasher.hashNewPassword`.
 *
 * User names compare exactly, on every database (MySQL's collation alone would match another
 * case, and trailing spaces); a new name may not differ from a taken one by case only.
 */
@Injectable()
export class AdminRosterService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** By user name. */
  list(offset: number, limit: number): Promise<[AdminAccount[], number]> {
    return this.db.read(({ manager }) => accounts(manager).findAndCount({ order: { username: 'ASC' }, skip: offset, take: limit }));
  }

  /** The account with exactly this user name; 404 / 4040 when there is none. */
  async get(username: string, scope: DatabaseScope = this.db): Promise<AdminAccount> {
    const found = await scope.read(({ manager }) => accounts(manager).findOneBy({ username }));
    if (found?.username !== username) throw notFound(username);
    return found;
  }

  /** 409 / 4091 when the user name is taken, in any case. */
  async assertNameFree(username: string, scope: DatabaseScope = this.db): Promise<void> {
    const taken = await scope.read(({ manager }) =>
      accounts(manager).createQueryBuilder('account').where('LOWER(account.username) = LOWER(:username)', { username }).getOne(),
    );
    if (taken) throw new ApiError(ErrorCode.DUPLICATE_KEY, `An admin account "${taken.username}" already exists.`);
  }

  async create(input: NewAdminAccount, scope: DatabaseScope): Promise<AdminAccount> {
    await this.assertNameFree(input.username, scope);
    const account = Object.assign(new AdminAccount(), { ...input, createdAt: this.clock.now() });
    await scope.write(({ manager }) => accounts(manager).insert(account));
    return account;
  }

  /** Gives the account a role; the role it had is returned. The account's tokens carry the new role from their next request. */
  async setRole(username: string, role: AdminRole, tx: DatabaseScope): Promise<{ account: AdminAccount; previous: AdminRole }> {
    const locked = await this.lockAll(tx);
    const account = this.pick(locked, username);
    const previous = account.role;
    if (role !== 'admin') assertNotLastAdmin(locked, account, 'demote');
    await tx.write(({ manager }) => accounts(manager).update({ username }, { role }));
    return { account: Object.assign(account, { role }), previous };
  }

  /** An operator's reset: no old password needed; every token of the account ends, whoever holds one is out. */
  async resetPassword(username: string, passwordHash: string, tx: DatabaseScope): Promise<void> {
    this.pick(await this.lockAll(tx), username);
    await tx.write(async ({ manager }) => {
      await accounts(manager).update({ username }, { passwordHash });
      await endTokens(manager, username);
    });
  }

  /**
   * Writes the admin's own new password and ends the account's other tokens. Refused when the
   * password changed since it was checked (401 / 4013: an operator reset it meanwhile) or the
   * token or account is gone (401 / 4011: deleted or reset meanwhile).
   */
  async changeOwnPassword(change: OwnPasswordWrite, tx: DatabaseScope): Promise<void> {
    const { username, checkedHash, passwordHash, keepTokenId } = change;
    const account = (await this.lockAll(tx)).find((a) => a.username === username);
    const token = await tx.read(({ manager }) => manager.getRepository(AdminToken).findOneBy({ id: keepTokenId }));
    if (!account || token?.username !== username) throw new ApiError(ErrorCode.TOKEN_INVALID, 'The admin token is unknown.');
    if (account.passwordHash !== checkedHash)
      throw new ApiError(ErrorCode.LOGIN_FAILED, 'The password was changed meanwhile; sign in again.');
    await tx.write(async ({ manager }) => {
      await accounts(manager).update({ username }, { passwordHash });
      await endTokens(manager, username, keepTokenId);
    });
  }

  /** Deletes the account and ends its tokens. */
  async delete(username: string, tx: DatabaseScope): Promise<void> {
    const locked = await this.lockAll(tx);
    assertNotLastAdmin(locked, this.pick(locked, username), 'delete');
    await tx.write(async ({ manager }) => {
      await endTokens(manager, username);
      await accounts(manager).delete({ username });
    });
  }

  /**
   * Every admin account, locked until the transaction ends, as committed now: two admins
   * demoting or deleting each other at once are taken one after the other, and the second
   * sees what the first left, so the last admin check holds under concurrency. Locked in the
   * key's order by every caller, so they queue rather than deadlock. SQLite has no row locks;
   * the Database runs its transactions one at a time.
   */
  private lockAll(tx: DatabaseScope): Promise<AdminAccount[]> {
    return tx.write(({ manager }) => {
      const query = accounts(manager).createQueryBuilder('account').orderBy('account.username', 'ASC');
      return (this.db.dialect === 'sqlite' ? query : query.setLock('pessimistic_write')).getMany();
    });
  }

  private pick(locked: AdminAccount[], username: string): AdminAccount {
    const account = locked.find((a) => a.username === username);
    if (!account) throw notFound(username);
    return account;
  }
}

function assertNotLastAdmin(locked: AdminAccount[], account: AdminAccount, change: 'demote' | 'delete'): void {
  if (account.role !== 'admin' || locked.some((a) => a.role === 'admin' && a.username !== account.username)) return;
  throw new ApiError(
    ErrorCode.LAST_ADMIN,
    `"${account.username}" is the last admin account with the role "admin": give another account that role before you ${change} this one.`,
  );
}

/** Ends the account's admin tokens (all, or all but one). Tokens have no other state: ended is deleted. */
async function endTokens(manager: EntityManager, username: string, keepTokenId?: number): Promise<void> {
  const query = manager.createQueryBuilder().delete().from(AdminToken).where('username = :username', { username });
  if (keepTokenId !== undefined) query.andWhere('id <> :keepTokenId', { keepTokenId });
  await query.execute();
}

function notFound(username: string): ApiError {
  return new ApiError(ErrorCode.NOT_FOUND, `No admin account "${username}".`);
}

const accounts = (manager: EntityManager) => manager.getRepository(AdminAccount);
