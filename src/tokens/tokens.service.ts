import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { In, type EntityManager, type UpdateQueryBuilder } from 'typeorm';
import { ApiError } from '../common/api-error.js';
import { Clock } from '../common/clock.js';
import { ErrorCode } from '../common/error-codes.js';
import { Metrics } from '../observability/metrics.js';
import { LOGGER } from '../observability/logger.js';
import type { GlobalValue, GlobalValues } from '../common/global-values.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { ChangeSignals } from '../database/change-signals.js';
import { Database, type DatabaseScope } from '../database/database.js';
import { User } from '../users/user.entity.js';
import { ApiToken, type TokenOrigin } from './api-token.entity.js';
import { TokenCache } from './token-cache.js';
import { TokenLookup, type TokenRow } from './token-lookup.js';
import { tokenStatus, type TokenStatus } from './token-status.js';
import { generateTokenValue, hashTokenValue } from './token-value.js';

/** The signal every instance hears when another changed tokens or users (PostgreSQL; see ChangeSignals). */
const TOKENS_CHANGED = 'tessera_tokens_changed';

/** last_used_at is refreshed at most this often per token: reading a token must not cost a write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface IssueTokenInput {
  label: string;
  userIdentifier: string | null;
  roles: string[];
  globals: GlobalValues;
  /** Epoch ms, or null for never (manual tokens). */
  expiration: number | null;
  origin: TokenOrigin;
  userInfo?: Record<string, GlobalValue> | null;
  /** A chosen key (manual tokens); generated when absent. */
  key?: string;
}

/**
 * A token found by its key (or listed), with its state now. A login token carries its user's
 * current roles and globals, and is `disabled` while its user is inactive or gone.
 */
export interface FoundToken {
  token: ApiToken;
  status: TokenStatus;
}

/** Issues, finds, disables and lists API tokens. Keys exist only in the answer to `issue`. */
@Injectable()
export class TokensService implements OnModuleInit, OnModuleDestroy {
  private readonly lookup: TokenLookup;
  private readonly cache: TokenCache;
  private readonly signals: ChangeSignals;
  /** Told whenever the cached tokens are forgotten (see `onForget`). */
  private readonly forgetListeners: Array<() => void> = [];

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly metrics: Metrics,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.lookup = new TokenLookup(db);
    this.cache = new TokenCache(config.auth.tokenCacheSeconds * 1000);
    this.signals = db.changeSignals(logger);
  }

  /** On PostgreSQL, a change made through another instance empties this one's cache at once, not within TOKEN_CACHE_SECONDS. */
  async onModuleInit(): Promise<void> {
    await this.signals.listen(TOKENS_CHANGED, () => this.forgetLocally());
  }

  async onModuleDestroy(): Promise<void> {
    await this.signals.close();
  }

  /** Stores a new token; the key is returned here and never again. */
  async issue(input: IssueTokenInput, scope: DatabaseScope = this.db): Promise<{ token: ApiToken; apikey: string }> {
    const apikey = input.key ?? generateTokenValue();
    const token = Object.assign(new ApiToken(), {
      keyHash: hashTokenValue(apikey),
      label: input.label,
      userIdentifier: input.userIdentifier,
      roles: input.roles,
      globals: input.globals,
      userInfo: input.userInfo ?? null,
      expiration: input.expiration,
      disabled: false,
      disabledAt: null,
      origin: input.origin,
      createdAt: this.clock.now(),
      lastUsedAt: null,
    });
    await scope.write(({ manager }) => tokens(manager).insert(token));
    this.metrics.tokenIssued(input.origin);
    return { token, apikey };
  }

  /**
   * The token with this key, or undefined. One query (or none, while the token cache holds
   * it): it also reads whether the built-in user behind a login token was made inactive, so
   * such tokens stop at their next use. Through the gate, so on SQLite it never sees another
   * request's uncommitted change.
   */
  async findByKey(apikey: string): Promise<FoundToken | undefined> {
    const found = await this.read(hashTokenValue(apikey));
    if (!found) return undefined;
    return { token: found.token, status: found.userInactive ? 'disabled' : tokenStatus(found.token, this.clock.now()) };
  }

  /**
   * Every change here that can stop a token (disable, disable a user's, delete; a user made
   * inactive or deleted comes through disableForUser) forgets the cached rows; so must every
   * change to a user, whose login tokens follow its roles and globals. Inside a caller's
   * transaction that is before its commit, where on MySQL/PostgreSQL a request in between may
   * cache the old row again: callers that change inside a transaction call this once more
   * after the commit (a row read before that call is never cached, see TokenCache.version).
   * The other instances sharing the database are told too (PostgreSQL; the call after the
   * commit is the one that matters to them).
   */
  forgetCachedTokens(): void {
    this.forgetLocally();
    this.signals.announce(TOKENS_CHANGED);
  }

  /**
   * Calls `listener` whenever this process forgets its cached tokens: on every change to tokens or
   * users made here, and (PostgreSQL) one announced by another instance. Other caches of who a
   * caller is (HTTP Basic's) are emptied with it.
   */
  onForget(listener: () => void): void {
    this.forgetListeners.push(listener);
  }

  private forgetLocally(): void {
    this.cache.clear();
    for (const listener of this.forgetListeners) listener();
  }

  private async read(keyHash: string): Promise<TokenRow | undefined> {
    const cached = this.cache.get(keyHash, this.clock.now());
    if (cached) return cached;
    const version = this.cache.version();
    const found = await this.lookup.find(keyHash);
    if (found) this.cache.set(keyHash, found, this.clock.now(), version);
    return found;
  }

  /**
   * The active token with this key, its use recorded; 401 / 4011 when it is unknown or
   * disabled (or its user inactive), 401 / 4012 when it has expired.
   */
  async verify(apikey: string): Promise<ApiToken> {
    const found = await this.findByKey(apikey);
    if (!found || found.status === 'disabled') throw new ApiError(ErrorCode.TOKEN_INVALID, 'The auth token is unknown or disabled.');
    if (found.status === 'expired') throw new ApiError(ErrorCode.TOKEN_EXPIRED, 'The auth token has expired.');
    await this.markUsed(found.token);
    return found.token;
  }

  /** Records a use, at most once a minute per token (a conditional write, so concurrent requests do not pile up). */
  async markUsed(token: ApiToken): Promise<void> {
    const now = this.clock.now();
    if (token.lastUsedAt !== null && now - token.lastUsedAt < LAST_USED_RESOLUTION_MS) return;
    await this.db.write(({ manager }) =>
      tokens(manager)
        .createQueryBuilder()
        .update(ApiToken)
        .set({ lastUsedAt: now })
        .where('id = :id', { id: token.id })
        .andWhere('(last_used_at IS NULL OR last_used_at < :stale)', { stale: now - LAST_USED_RESOLUTION_MS })
        .execute(),
    );
    // The token may be the cached row: the next request must not write again within the minute.
    token.lastUsedAt = now;
  }

  /** Disables the token if it is active; a disabled or expired one stays as it is (spec §3). */
  async disable(id: number, scope: DatabaseScope = this.db): Promise<void> {
    await this.disableActive(scope, (q) => q.andWhere('id = :id', { id }));
    this.forgetCachedTokens();
  }

  /**
   * Disables every active token of a user (password changed, user deleted). A built-in
   * user's tokens and those of a custom provider's user of the same name are kept apart:
   * `custom` touches only tokens made by provider logins, `built-in` all others.
   */
  async disableForUser(userIdentifier: string, scope: DatabaseScope = this.db, users: 'built-in' | 'custom' = 'built-in'): Promise<void> {
    await this.disableActive(scope, (q) =>
      q
        .andWhere('user_identifier = :user', { user: userIdentifier })
        .andWhere(users === 'custom' ? 'origin = :provider' : 'origin <> :provider', { provider: 'provider' }),
    );
    this.forgetCachedTokens();
  }

  status(token: ApiToken): TokenStatus {
    return tokenStatus(token, this.clock.now());
  }

  /** A page of tokens as the token check sees them: login tokens with their user's roles, globals and state. */
  async list(offset: number, limit: number): Promise<[FoundToken[], number]> {
    const [page, total] = await this.db.read(({ manager }) =>
      tokens(manager).findAndCount({ order: { id: 'ASC' }, skip: offset, take: limit }),
    );
    return [await this.followUsers(page), total];
  }

  async findById(id: number): Promise<FoundToken | undefined> {
    const token = await this.db.read(({ manager }) => tokens(manager).findOneBy({ id }));
    return token ? (await this.followUsers([token]))[0] : undefined;
  }

  /** What TokenLookup does for one token, for a page of them (one query for their users). */
  private async followUsers(page: ApiToken[]): Promise<FoundToken[]> {
    const logins = [...new Set(page.flatMap((t) => (t.origin === 'login' && t.userIdentifier !== null ? [t.userIdentifier] : [])))];
    const users = logins.length === 0 ? [] : await this.db.read(({ manager }) => manager.getRepository(User).findBy({ login: In(logins) }));
    const byLogin = new Map(users.map((u) => [u.login, u]));
    return page.map((token) => {
      if (token.origin !== 'login') return { token, status: this.status(token) };
      const user = token.userIdentifier === null ? undefined : byLogin.get(token.userIdentifier);
      if (!user) return { token, status: 'disabled' };
      Object.assign(token, { roles: user.roles, globals: user.globals });
      return { token, status: user.active ? this.status(token) : 'disabled' };
    });
  }

  async existsWithKey(apikey: string): Promise<boolean> {
    return (await this.db.read(({ manager }) => tokens(manager).countBy({ keyHash: hashTokenValue(apikey) }))) > 0;
  }

  async delete(id: number, scope: DatabaseScope = this.db): Promise<void> {
    await scope.write(({ manager }) => tokens(manager).delete({ id }));
    this.forgetCachedTokens();
  }

  private async disableActive(
    scope: DatabaseScope,
    which: (update: UpdateQueryBuilder<ApiToken>) => UpdateQueryBuilder<ApiToken>,
  ): Promise<void> {
    const now = this.clock.now();
    await scope.write(({ manager }) => {
      const update = tokens(manager)
        .createQueryBuilder()
        .update(ApiToken)
        .set({ disabled: true, disabledAt: now })
        .where('disabled = :no', { no: false })
        .andWhere('(expiration IS NULL OR expiration > :now)', { now });
      return which(update).execute();
    });
  }
}

const tokens = (manager: EntityManager) => manager.getRepository(ApiToken);
