import type { Logger } from 'pino';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import type {
  AuthContext,
  AuthProvider,
  AuthResult,
  AuthSuccess,
  LoginInfo,
  LoginPayload,
  PasswordChangeOutcome,
  ProviderDescription,
} from './auth-provider.js';
import type { JsProvider, ProviderContext } from './js-provider.js';
import { isMalformed, readAnswer, readLoginInfo, readPasswordChange } from './provider-answer.js';
import { messageOf, settleWithin, type Settled } from '../common/settle-within.js';
import { credentialsOf, providerLogger, scrub, sortSecrets } from './provider-logger.js';
import { redactSecrets, type SecretSettings } from './provider-secrets.js';

/** The one message for a provider that failed rather than refused: the client learns nothing about why. */
export const PROVIDER_FAILED_MESSAGE = 'Login failed: the authentication provider could not check these credentials.';
export const PROVIDER_TIMEOUT_MESSAGE = 'The authentication provider did not answer in time; try again shortly.';

/** The flag LAC providers read from the payload on the call made for a password change (spec §4.4). */
export const PASSWORD_CHANGE_FLAG = 'enablePasswordChange!';

export interface CustomProviderOptions {
  name: string;
  /** The module, as operators know it (relative to the project root). */
  file: string;
  provider: JsProvider;
  config: Readonly<Record<string, unknown>>;
  secrets: SecretSettings;
  timeoutMs: number;
  logger: Logger;
}

/**
 * Adapts a custom JavaScript provider (providers/<name>.js) to `AuthProvider`, so the login
 * flow is the same for every provider. Each call into the module is bounded by the
 * provider timeout, and whatever the module does (throw, reject, hang, answer nonsense)
 * becomes 401 / 4013 or 503 / 5031: never a crash, never a token. Log lines name the
 * provider and never carry the request's credentials or the provider's secrets.
 */
export class CustomAuthProvider implements AuthProvider {
  readonly kind = 'custom' as const;
  readonly name: string;
  private readonly log: Logger;

  constructor(private readonly options: CustomProviderOptions) {
    this.name = options.name;
    this.log = options.logger.child({ provider: options.name });
  }

  async authenticate(payload: LoginPayload, context: AuthContext): Promise<AuthResult> {
    const settled = await this.call('authenticate', payload, context, (ctx) => this.options.provider.authenticate({ ...payload }, ctx));
    if (settled.status !== 'ok') throw this.failure(settled, 'authenticate', payload, ErrorCode.LOGIN_FAILED);
    const result = readAnswer(settled.value);
    if (isMalformed(result)) {
      this.log.error({ problem: result.malformed }, "the provider's authenticate answer is malformed; no token made");
      throw new ApiError(ErrorCode.LOGIN_FAILED, PROVIDER_FAILED_MESSAGE);
    }
    return result;
  }

  /**
   * LAC's way: after a successful login the provider's `authenticate` is called again, with
   * `"enablePasswordChange!": true` in the payload, and answers `changePasswordResult` and
   * `changePasswordMessage`. The login stands whatever happens here.
   */
  async changePassword(payload: LoginPayload, _login: AuthSuccess, context: AuthContext): Promise<PasswordChangeOutcome> {
    const flagged = { ...payload, [PASSWORD_CHANGE_FLAG]: true as const };
    const settled = await this.call('authenticate', flagged, context, (ctx) => this.options.provider.authenticate(flagged, ctx));
    if (settled.status !== 'ok') {
      this.failure(settled, 'authenticate (password change)', payload, ErrorCode.LOGIN_FAILED);
      return { result: 'failure', message: 'The authentication provider failed while changing the password.' };
    }
    return readPasswordChange(settled.value);
  }

  async loginInfo(): Promise<LoginInfo> {
    const provider = this.options.provider;
    const getLoginInfo = provider.getLoginInfo?.bind(provider);
    if (!getLoginInfo) {
      return {
        fields: [
          { name: 'username', display: 'User name', type: 'text' },
          { name: 'password', display: 'Password', type: 'password' },
        ],
        links: [],
      };
    }
    const settled = await this.call('getLoginInfo', {}, undefined, () => getLoginInfo());
    if (settled.status !== 'ok') throw this.failure(settled, 'getLoginInfo', {}, ErrorCode.INTERNAL);
    return readLoginInfo(settled.value);
  }

  async describe(): Promise<ProviderDescription> {
    const base = { name: this.name, kind: this.kind, file: this.options.file };
    const provider = this.options.provider;
    const getConfigInfo = provider.getConfigInfo?.bind(provider);
    if (!getConfigInfo) return { ...base, configInfo: null };
    const settled = await this.call('getConfigInfo', {}, undefined, () => getConfigInfo());
    if (settled.status !== 'ok') throw this.failure(settled, 'getConfigInfo', {}, ErrorCode.INTERNAL);
    return { ...base, configInfo: redactSecrets(toJson(settled.value), this.options.secrets) };
  }

  /** Calls into the module with a context of its own, within the provider timeout. */
  private call<T>(
    what: string,
    payload: Record<string, unknown>,
    context: AuthContext | undefined,
    work: (ctx: ProviderContext) => T,
  ): Promise<Settled<Awaited<T>>> {
    const { timeoutMs, config } = this.options;
    const ctx: ProviderContext = {
      clientAddress: context?.clientAddress ?? '',
      logger: providerLogger(this.log.child({ call: what }), this.secretsOf(payload)),
      fetch: (input, init) => fetch(input, { signal: AbortSignal.timeout(timeoutMs), ...init }),
      config,
    };
    return settleWithin(timeoutMs, () => work(ctx));
  }

  /**
   * Logs a failed call, credentials and secrets blanked, and gives the client's error:
   * 503 / 5031 for a timeout, else `errorCode` with a message that tells nothing about why.
   */
  private failure(
    settled: Exclude<Settled<unknown>, { status: 'ok' }>,
    what: string,
    payload: Record<string, unknown>,
    errorCode: ErrorCode,
  ): ApiError {
    if (settled.status === 'timeout') {
      this.log.error({ timeoutMs: this.options.timeoutMs }, `the provider's ${what} did not answer within AUTH_PROVIDER_TIMEOUT_MS`);
      return new ApiError(ErrorCode.PROVIDER_UNAVAILABLE, PROVIDER_TIMEOUT_MESSAGE);
    }
    this.log.error(
      { error: scrub(settled.error, this.secretsOf(payload)) },
      `the provider's ${what} failed: ${String(scrub(messageOf(settled.error), this.secretsOf(payload)))}`,
    );
    return new ApiError(
      errorCode,
      errorCode === ErrorCode.LOGIN_FAILED ? PROVIDER_FAILED_MESSAGE : 'The authentication provider failed; the log says why.',
    );
  }

  private secretsOf(payload: Record<string, unknown>): string[] {
    return sortSecrets([...credentialsOf(payload), ...this.options.secrets.values]);
  }
}

/** Only what JSON can carry reaches the admin API. */
function toJson(value: unknown): unknown {
  try {
    return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown);
  } catch {
    return null;
  }
}
