import { randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { ApiError } from '../common/api-error.js';
import { BootNotes } from '../observability/boot-notes.js';
import { Clock, isoTime } from '../common/clock.js';
import { ErrorCode } from '../common/error-codes.js';
import { LOGGER } from '../observability/logger.js';
import { countedLogin, Metrics } from '../observability/metrics.js';
import { LoginThrottle, type LoginClient, type LoginOutcome } from '../login/login-throttle.js';
import { PasswordHasher } from '../login/password-hasher.js';
import { passwordProblem } from '../login/password-policy.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { Database } from '../database/database.js';
import type { AdminPrincipal, AdminRole } from '../admin-api/admin-principal.js';
import { generateTokenValue, hashTokenValue } from '../tokens/token-value.js';
import { AdminAccount } from './admin-account.entity.js';
import { AdminToken } from './admin-token.entity.js';

const DEFAULT_ADMIN = 'admin';

/** An admin login's answer: the token, when it expires, and the account's role (what the console may offer). */
export interface AdminLoginAnswer {
  apikey: string;
  expiration: string;
  role: AdminRole;
}

/** A checked own password change, ready to be written. */
export interface OwnPasswordChange {
  /** The account's hash the current password matched. */
  checkedHash: string;
  /** The new password's hash. */
  passwordHash: string;
}

/** Admin accounts: the first one at first boot, logins (and the check of an own password change), and admin token checks. */
@Injectable()
export class AdminAccountsService implements OnApplicationBootstrap {
  constructor(
    private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly hasher: PasswordHasher,
    private readonly throttle: LoginThrottle,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    private readonly bootNotes: BootNotes,
  ) {}

  /**
   * With no admin account yet, creates one from TESSERA_ADMIN_USER / TESSERA_ADMIN_PASSWORD,
   * or with a generated password that the boot banner prints once (see `bootBanner`), never stored in clear.
   * Under the boot lock: of instances booting at once on an empty database, one creates it.
   */
  async onApplicationBootstrap(): Promise<void> {
    await this.db.bootStep('first admin account', () => this.createFirstAccountIfNone(), this.logger);
  }

  private async createFirstAccountIfNone(): Promise<void> {
    if ((await this.db.read(({ manager }) => manager.getRepository(AdminAccount).count())) > 0) return;
    const username = this.config.auth.adminUser ?? DEFAULT_ADMIN;
    const configured = this.config.auth.adminPassword;
    const problem = configured === undefined ? undefined : passwordProblem(configured);
    if (problem) throw new Error(`TESSERA_ADMIN_PASSWORD: ${problem}`);
    const password = configured ?? randomBytes(18).toString('base64url');
    const passwordHash = await this.hasher.hash(password);
    await this.db.write(({ manager }) =>
      manager.getRepository(AdminAccount).insert({ username, passwordHash, role: 'admin', createdAt: this.clock.now() }),
    );
    if (configured === undefined) {
      this.bootNotes.generatedAdmin(username, password);
      this.logger.info({ username }, 'first admin account created; its password is in the boot banner, the last line of the boot');
    } else {
      this.logger.info({ username }, 'first admin account created from TESSERA_ADMIN_USER / TESSERA_ADMIN_PASSWORD');
    }
  }

  /** Logs an admin in; admitted and throttled like API logins, 401 / 4013 with one message for any bad credentials. */
  login(username: string, password: string, client: LoginClient): Promise<AdminLoginAnswer> {
    return countedLogin(this.metrics, 'admin', () => this.hasher.admitLogin(() => this.admittedLogin(username, password, client)));
  }

  private async admittedLogin(username: string, password: string, client: LoginClient): Promise<AdminLoginAnswer> {
    const account = await this.checkPassword(username, password, client);
    if (!account) throw new ApiError(ErrorCode.LOGIN_FAILED, 'Admin login failed: unknown user name or wrong password.');
    const apikey = generateTokenValue();
    const now = this.clock.now();
    const expiration = now + this.config.auth.tokenLifetimeSeconds * 1000;
    await this.db.write(({ manager }) =>
      manager.getRepository(AdminToken).insert({ keyHash: hashTokenValue(apikey), username, expiration, createdAt: now }),
    );
    this.metrics.tokenIssued('admin');
    return { apikey, expiration: isoTime(expiration), role: account.role };
  }

  /**
   * The signed-in admin's own password change, up to its write: the new password must meet
   * the policy and differ from the current one (400 / 4000); the current one is checked as a
   * login checks it, admitted (503 / 5032) and throttled (429 / 4290) with the account's
   * logins, a wrong one counted as a failed login and answered 401 / 4013. Returns the new
   * hash and the hash the current password was checked against (see
   * `AdminRosterService.changeOwnPassword`, which writes it only if that is still the account's).
   */
  async hashOwnNewPassword(username: string, password: string, newPassword: string, client: LoginClient): Promise<OwnPasswordChange> {
    const problem =
      passwordProblem(newPassword) ?? (newPassword === password ? 'The new password is the same as the current one.' : undefined);
    if (problem) throw new ApiError(ErrorCode.BAD_REQUEST, problem);
    return this.hasher.admitLogin(async () => {
      const account = await this.checkPassword(username, password, client);
      if (!account) throw new ApiError(ErrorCode.LOGIN_FAILED, 'The current password is wrong.');
      return { checkedHash: account.passwordHash, passwordHash: await this.hasher.hash(newPassword) };
    });
  }

  /** The account when `password` is its password, counted by the login throttle either way; undefined otherwise. */
  private async checkPassword(username: string, password: string, client: LoginClient): Promise<AdminAccount | undefined> {
    const attempt = { account: `admin:${username}`, address: client.address, clientGone: client.gone };
    const reservation = await this.throttle.reserve(attempt);
    let outcome: LoginOutcome = 'abandoned';
    try {
      const found = await this.db.read(({ manager }) => manager.getRepository(AdminAccount).findOneBy({ username }));
      const account = found?.username === username ? found : undefined;
      const verified = await this.hasher.verify(password, account?.passwordHash);
      outcome = verified ? 'succeeded' : 'failed';
      return verified ? account : undefined;
    } finally {
      await this.throttle.finish(reservation, outcome);
    }
  }

  /**
   * The admin behind an admin token, with the account's role as it is now; 401 / 4011 unknown
   * (API tokens included) or its account gone, 401 / 4012 expired.
   */
  async verify(apikey: string): Promise<AdminPrincipal> {
    const found = await this.db.read(async ({ manager }) => {
      const token = await manager.getRepository(AdminToken).findOneBy({ keyHash: hashTokenValue(apikey) });
      const account = token ? await manager.getRepository(AdminAccount).findOneBy({ username: token.username }) : null;
      return { token, account };
    });
    const { token, account } = found;
    if (!token || !account || account.username !== token.username)
      throw new ApiError(ErrorCode.TOKEN_INVALID, 'The admin token is unknown.');
    if (token.expiration <= this.clock.now()) throw new ApiError(ErrorCode.TOKEN_EXPIRED, 'The admin token has expired.');
    return { username: account.username, role: account.role, tokenId: token.id };
  }
}
