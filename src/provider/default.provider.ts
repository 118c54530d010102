import { Injectable } from '@nestjs/common';
import { isoTime } from '../common/clock.js';
import { UsersService } from '../users/users.service.js';
import {
  builtInDescription,
  type AuthContext,
  type AuthProvider,
  type AuthResult,
  type AuthSuccess,
  type LoginInfo,
  type LoginPayload,
  type PasswordChangeOutcome,
  type ProviderDescription,
} from './auth-provider.js';

/** One message for an unknown user, a wrong password and an inactive user: the client cannot tell them apart. */
export const LOGIN_FAILED_MESSAGE = 'Login failed: unknown user name or wrong password.';

/** The built-in provider: the users of the tessera_users table. */
@Injectable()
export class DefaultAuthProvider implements AuthProvider {
  readonly name = 'default';
  readonly kind = 'built-in';

  constructor(private readonly users: UsersService) {}

  async authenticate(payload: LoginPayload, context: AuthContext): Promise<AuthResult> {
    // parseAuthRequest guarantees both strings for built-in providers.
    const user = await this.users.authenticate(payload.username!, payload.password!);
    if (!user) return { errorMessage: LOGIN_FAILED_MESSAGE };
    // The response tells the user about their previous login, so read it before recording this one.
    const userInfo = {
      lastLoginTs: isoTime(user.lastLoginAt),
      lastLoginIP: user.lastLoginIp,
      email: user.email,
    };
    await this.users.recordLogin(user, context.clientAddress);
    return {
      roleNames: user.roles,
      userIdentifier: user.login,
      keyLifetimeSeconds: user.keyLifetimeSeconds ?? undefined,
      userData: user.globals,
      userInfo,
    };
  }

  async changePassword(payload: LoginPayload, login: AuthSuccess): Promise<PasswordChangeOutcome> {
    const next = payload.new_password ?? payload.newPassword;
    if (typeof next !== 'string') {
      return { result: 'failure', message: 'No new password: send it as new_password (or newPassword).' };
    }
    const user = await this.users.findByLogin(login.userIdentifier);
    if (!user) return { result: 'failure', message: 'The user no longer exists.' };
    const problem = await this.users.changeOwnPassword(user, payload.password!, next);
    return problem ? { result: 'failure', message: problem } : { result: 'success', message: 'The password was changed.' };
  }

  async loginInfo(): Promise<LoginInfo> {
    return {
      fields: [
        { name: 'username', display: 'User name', type: 'text' },
        { name: 'password', display: 'Password', type: 'password' },
      ],
      links: [],
    };
  }

  describe(): Promise<ProviderDescription> {
    return builtInDescription(this.name);
  }
}
