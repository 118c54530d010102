import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ApiError } from '../common/api-error.js';
import { Clock } from '../common/clock.js';
import { ErrorCode } from '../common/error-codes.js';
import type { GlobalValues } from '../common/global-values.js';
import { PasswordHasher } from '../login/password-hasher.js';
import { passwordProblem } from '../login/password-policy.js';
import { Database, type DatabaseScope } from '../database/database.js';
import { User } from './user.entity.js';

/** A new user, its password already hashed by `PasswordHasher.hashNewPassword`. */
export interface NewUser {
  login: string;
  passwordHash: string;
  roles: string[];
  globals?: GlobalValues;
  email?: string | null;
  keyLifetimeSeconds?: number | null;
  active?: boolean;
}

/** The fields of a user that may change without a password. */
export type UserChanges = Partial<Pick<User, 'roles' | 'globals' | 'email' | 'keyLifetimeSeconds' | 'active'>>;

/** Users of the built-in provider (spec §2.2): bcrypt-hashed passwords, roles and global values. */
@Injectable()
export class UsersService {
  constructor(
    private readonly db: Database,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
  ) {}

  /**
   * The user with exactly this login name. MySQL's collation compares case-insensitively;
   * the extra check keeps login names case-sensitive on every database.
   */
  async findByLogin(login: string, scope: DatabaseScope = this.db): Promise<User | undefined> {
    const user = await scope.read(({ manager }) => users(manager).findOneBy({ login }));
    return user && user.login === login ? user : undefined;
  }

  /** The user when `password` is theirs and they are active; otherwise undefined, after the same bcrypt work. */
  async authenticate(login: string, password: string): Promise<User | undefined> {
    const user = await this.findByLogin(login);
    const matches = await this.hasher.verify(password, user?.passwordHash);
    return matches && user?.active ? user : undefined;
  }

  async recordLogin(user: User, address: string): Promise<void> {
    await this.db.write(({ manager }) =>
      users(manager).update({ login: user.login }, { lastLoginAt: this.clock.now(), lastLoginIp: address }),
    );
  }

  /** Creates a user; a taken login is 409 / 4091. */
  async create(input: NewUser, scope: DatabaseScope = this.db): Promise<User> {
    if (await this.findByLogin(input.login, scope)) throw new ApiError(ErrorCode.DUPLICATE_KEY, `A user "${input.login}" already exists.`);
    const now = this.clock.now();
    const user = Object.assign(new User(), {
      login: input.login,
      passwordHash: input.passwordHash,
      roles: input.roles,
      globals: input.globals ?? {},
      email: input.email ?? null,
      keyLifetimeSeconds: input.keyLifetimeSeconds ?? null,
      active: input.active ?? true,
      lastLoginAt: null,
      lastLoginIp: null,
      createdAt: now,
      updatedAt: now,
    });
    await scope.write(({ manager }) => users(manager).insert(user));
    return user;
  }

  async update(user: User, changes: UserChanges, scope: DatabaseScope = this.db): Promise<User> {
    const updated = { ...changes, updatedAt: this.clock.now() };
    await scope.write(({ manager }) => users(manager).update({ login: user.login }, updated));
    return Object.assign(user, updated);
  }

  /** Sets a password hash from `PasswordHasher.hashNewPassword` (an operator's reset: no old password needed). */
  async setPasswordHash(user: User, passwordHash: string, scope: DatabaseScope = this.db): Promise<void> {
    await scope.write(({ manager }) => users(manager).update({ login: user.login }, { passwordHash, updatedAt: this.clock.now() }));
  }

  /**
   * The user's own password change at login: the reason it cannot be made, or undefined
   * once it is made. `current` has just been verified by the login.
   */
  async changeOwnPassword(user: User, current: string, next: string): Promise<string | undefined> {
    const problem = passwordProblem(next);
    if (problem) return problem;
    if (next === current) return 'The new password is the same as the current one.';
    const passwordHash = await this.hasher.hash(next);
    await this.setPasswordHash(user, passwordHash);
    return undefined;
  }

  list(offset: number, limit: number): Promise<[User[], number]> {
    return this.db.read(({ manager }) => users(manager).findAndCount({ order: { login: 'ASC' }, skip: offset, take: limit }));
  }

  async count(): Promise<number> {
    return this.db.read(({ manager }) => users(manager).count());
  }

  async delete(user: User, scope: DatabaseScope = this.db): Promise<void> {
    await scope.write(({ manager }) => users(manager).delete({ login: user.login }));
  }
}

const users = (manager: EntityManager) => manager.getRepository(User);
