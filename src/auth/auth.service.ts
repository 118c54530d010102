import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { Clock, isoTime } from '../common/clock.js';
import { ErrorCode } from '../common/error-codes.js';
import { countedLogin, Metrics } from '../observability/metrics.js';
import { LoginThrottle, type LoginOutcome } from '../login/login-throttle.js';
import { PasswordHasher } from '../login/password-hasher.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import {
  AUTH_PROVIDER,
  isAuthFailure,
  type AuthContext,
  type AuthProvider,
  type AuthResult,
  type AuthSuccess,
  type LoginPayload,
} from '../provider/auth-provider.js';
import type { ApiToken } from '../tokens/api-token.entity.js';
import { TokensService } from '../tokens/tokens.service.js';

/** The answer to a login or a re-validation (api-contract §3). */
export interface TokenResponse {
  apikey: string;
  expiration: string | null;
  lastLoginTs: string | null;
  lastLoginIP: string | null;
  email: string | null;
  [extra: string]: unknown;
}

export interface PasswordChangeResponse {
  changePasswordResult: 'success' | 'failure' | 'notSupported';
  changePasswordMessage: string;
}

/** The four behaviours of `@authentication`: login (with an optional password change), re-validate, disable. */
@Injectable()
export class AuthService {
  constructor(
    @Inject(AUTH_PROVIDER) private readonly provider: AuthProvider,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokens: TokensService,
    private readonly throttle: LoginThrottle,
    private readonly clock: Clock,
    private readonly hasher: PasswordHasher,
    private readonly metrics: Metrics,
  ) {}

  /**
   * Logs in through the provider and issues a new token; 503 / 5032 when too many logins are
   * in progress (before anything else), 429 when throttled, 401 / 4013 when refused.
   * `clientGone` aborts when the client has left: its slot in the throttle is given back then.
   */
  login(payload: LoginPayload, context: AuthContext, clientGone?: AbortSignal): Promise<TokenResponse & Partial<PasswordChangeResponse>> {
    return countedLogin(this.metrics, 'api', () => this.hasher.admitLogin(() => this.admittedLogin(payload, context, clientGone)));
  }

  private async admittedLogin(
    payload: LoginPayload,
    context: AuthContext,
    clientGone: AbortSignal | undefined,
  ): Promise<TokenResponse & Partial<PasswordChangeResponse>> {
    const result = await this.checkCredentials(payload, context, clientGone);
    // Before the new token exists, so a successful change disables only the user's other tokens.
    const passwordChange = context.enablePasswordChange ? await this.changePassword(payload, result, context) : undefined;
    const { token, apikey } = await this.tokens.issue({
      label: `Temp key for ${result.userIdentifier}`,
      userIdentifier: result.userIdentifier,
      roles: result.roleNames,
      globals: result.userData ?? {},
      userInfo: result.userInfo ?? null,
      expiration: this.expirationOf(result),
      origin: this.provider.kind === 'custom' ? 'provider' : 'login',
    });
    return { ...tokenResponse(apikey, token), ...passwordChange };
  }

  /**
   * HTTP Basic's check of a user name and password (README, "HTTP Basic"): exactly a login's
   * (the same admission queue, throttle and provider call, so the same timing whether the user
   * exists or not, and a wrong password counts as a failed login), without issuing a token.
   */
  checkBasic(payload: LoginPayload, context: AuthContext, clientGone?: AbortSignal): Promise<AuthSuccess> {
    return countedLogin(this.metrics, 'api', () => this.hasher.admitLogin(() => this.checkCredentials(payload, context, clientGone)));
  }

  /** The provider's verdict on a login's credentials, counted by the throttle; 401 / 4013 when refused. */
  private async checkCredentials(payload: LoginPayload, context: AuthContext, clientGone: AbortSignal | undefined): Promise<AuthSuccess> {
    const attempt = { account: throttleAccount(payload, context), address: context.clientAddress, clientGone };
    // Counted before the provider checks anything; a provider that times out (or a database
    // error) judged nothing, and gives the attempt back.
    const reservation = await this.throttle.reserve(attempt);
    let outcome: LoginOutcome = 'abandoned';
    let result: AuthResult;
    try {
      result = await this.provider.authenticate(payload, context);
      outcome = isAuthFailure(result) ? 'failed' : 'succeeded';
    } finally {
      await this.throttle.finish(reservation, outcome);
    }
    if (isAuthFailure(result)) throw new ApiError(ErrorCode.LOGIN_FAILED, result.errorMessage);
    return result;
  }

  /** The same key with its original expiration, without asking the provider. */
  async revalidate(apikey: string): Promise<TokenResponse> {
    return tokenResponse(apikey, await this.tokens.verify(apikey));
  }

  /** Disables a token; a success again on a disabled or expired one, 404 / 4042 for an unknown key. */
  async disable(apikey: string): Promise<{ apikey: string; disabled: true }> {
    const found = await this.tokens.findByKey(apikey);
    if (!found) throw new ApiError(ErrorCode.TOKEN_NOT_FOUND, 'No auth token has this key.');
    await this.tokens.disable(found.token.id);
    return { apikey, disabled: true };
  }

  private async changePassword(payload: LoginPayload, login: AuthSuccess, context: AuthContext): Promise<PasswordChangeResponse> {
    if (!this.provider.changePassword) {
      return {
        changePasswordResult: 'notSupported',
        changePasswordMessage: 'The authentication provider does not support password changes.',
      };
    }
    const outcome = await this.provider.changePassword(payload, login, context);
    if (outcome.result === 'success') await this.tokens.disableForUser(login.userIdentifier, undefined, this.provider.kind);
    return { changePasswordResult: outcome.result, changePasswordMessage: outcome.message };
  }

  private expirationOf(result: AuthSuccess): number {
    if (result.keyExpiration) return result.keyExpiration.getTime();
    return this.clock.now() + (result.keyLifetimeSeconds ?? this.config.auth.tokenLifetimeSeconds) * 1000;
  }
}

/**
 * Failed logins are counted per account name; a custom provider's login may carry none (a
 * lone password, an OIDC token), and then the client address stands in for it, so one
 * client's failures never lock out everyone else.
 */
function throttleAccount(payload: LoginPayload, context: AuthContext): string {
  const { username } = payload;
  return typeof username === 'string' && username !== '' ? `api:${username}` : `api-address:${context.clientAddress}`;
}

/** apikey and expiration first, then the provider's extras; the three contract extras are always present. */
function tokenResponse(apikey: string, token: ApiToken): TokenResponse {
  const expiration = isoTime(token.expiration);
  return Object.assign({ apikey, expiration, lastLoginTs: null, lastLoginIP: null, email: null }, token.userInfo, { apikey, expiration });
}
