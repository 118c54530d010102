import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IS_ADMIN_API } from '../admin-api/admin-endpoint.decorator.js';
import { ApiError } from '../common/api-error.js';
import { ApiSettings } from '../config/api-settings.js';
import { endpointMetadata } from '../common/endpoint-metadata.js';
import { ErrorCode } from '../common/error-codes.js';
import { isPublicEndpoint } from '../common/public.decorator.js';
import { rawRequestOf } from '../common/request-slot.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { TokensService } from '../tokens/tokens.service.js';
import { setPrincipal } from '../common/principal.js';
import { apiKeyOfRequest } from './request-api-key.js';
import { Clock } from '../common/clock.js';
import { whileClientConnected } from '../http/client-abort.js';
import { clientAddressOf } from '../http/client-address.js';
import { AuthService } from './auth.service.js';
import { BasicCredentialCache, type BasicIdentity } from './basic-credential-cache.js';
import { basicCredentialsOf, type BasicCredentials } from './basic-credentials.js';

/**
 * Global guard (after ApiScopeGuard): every endpoint needs a valid API token unless it is
 * `@Public()` or part of the admin API (which has its own guard). Resolves the token to the
 * request's `Principal`. With HTTP_BASIC_AUTH, a request without a token may instead carry
 * `Authorization: Basic`, checked as a login is (README, "HTTP Basic"); a token, in the URL,
 * wins over Basic credentials in the header.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly settings: ApiSettings,
    private readonly tokens: TokensService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly auth: AuthService,
    private readonly clock: Clock,
  ) {
    this.basicCache = new BasicCredentialCache(config.auth.basicCacheSeconds * 1000);
    tokens.onForget(() => this.basicCache.clear());
  }

  private readonly basicCache: BasicCredentialCache;
  /** Basic checks under way, by cache key: concurrent requests with the same new credentials wait for one check. */
  private readonly checking = new Map<string, Promise<BasicIdentity>>();

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (isPublicEndpoint(this.reflector, context, this.config) || endpointMetadata<boolean>(this.reflector, IS_ADMIN_API, context)) {
      return true;
    }
    const request = context.switchToHttp().getRequest<unknown>();
    const raw = rawRequestOf(request);
    const apikey = apiKeyOfRequest(raw, this.settings.permitAuthInUrl);
    if (!apikey && this.settings.httpBasicAuth) {
      const credentials = basicCredentialsOf(raw.headers.authorization);
      if (credentials) {
        const identity = await this.basicIdentity(credentials, request).catch((error: unknown) => {
          throw withChallenge(error, this.challenge());
        });
        setPrincipal(request, { tokenId: null, ...identity });
        return true;
      }
    }
    if (!apikey) {
      const message = 'An auth token is required: Authorization: CALiveAPICreator <key>:1';
      if (this.settings.httpBasicAuth) throw new ApiError(ErrorCode.NO_TOKEN, `${message}, or Authorization: Basic.`, this.challenge());
      throw new ApiError(ErrorCode.NO_TOKEN, message);
    }
    const token = await this.tokens.verify(apikey);
    setPrincipal(request, {
      tokenId: token.id,
      userIdentifier: token.userIdentifier,
      roleNames: token.roles,
      globals: token.globals,
    });
    return true;
  }

  /** The identity behind Basic credentials: from the cache, or checked as a login (and cached on success). */
  private basicIdentity(credentials: BasicCredentials, request: unknown): Promise<BasicIdentity> {
    const key = this.basicCache.keyOf(credentials.username, credentials.password);
    const cached = this.basicCache.get(key, this.clock.now());
    if (cached) return Promise.resolve(cached);
    const running = this.checking.get(key);
    if (running) return running;
    const version = this.basicCache.version();
    const raw = rawRequestOf(request);
    const context = { clientAddress: clientAddressOf(raw, this.config.http.trustProxy), enablePasswordChange: false };
    const check = whileClientConnected(raw, (gone) => this.auth.checkBasic({ ...credentials }, context, gone))
      .then((success): BasicIdentity => {
        const identity = { userIdentifier: success.userIdentifier, roleNames: success.roleNames, globals: success.userData ?? {} };
        this.basicCache.set(key, identity, this.clock.now(), version);
        return identity;
      })
      .finally(() => this.checking.delete(key));
    this.checking.set(key, check);
    return check;
  }

  /** RFC 7235's challenge, on 401 answers while HTTP Basic is on. */
  private challenge(): Record<string, string> {
    const realm = `${this.settings.account}/${this.settings.project}`.replace(/["\\]/g, '');
    return { 'WWW-Authenticate': `Basic realm="${realm}", charset="UTF-8"` };
  }
}

/** A 401 from a Basic check carries the challenge; any other refusal (429, 503) goes as it is. */
function withChallenge(error: unknown, challenge: Record<string, string>): unknown {
  if (error instanceof ApiError && error.statusCode === 401)
    return new ApiError(error.errorCode, error.message, { ...error.headers, ...challenge });
  return error;
}
