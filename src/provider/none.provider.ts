import { Injectable } from '@nestjs/common';
import { builtInDescription, type AuthProvider, type AuthResult, type LoginInfo, type ProviderDescription } from './auth-provider.js';

/** AUTH_PROVIDER=none: no credential logins; the project works with hand-made tokens only (spec §5.6). */
@Injectable()
export class NoneAuthProvider implements AuthProvider {
  readonly name = 'none';
  readonly kind = 'built-in';

  async authenticate(): Promise<AuthResult> {
    return { errorMessage: 'Login failed: this project uses hand-made auth tokens only (AUTH_PROVIDER=none); no user can log in.' };
  }

  async loginInfo(): Promise<LoginInfo> {
    return { fields: [], links: [] };
  }

  describe(): Promise<ProviderDescription> {
    return builtInDescription(this.name);
  }
}
