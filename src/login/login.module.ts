import { Module } from '@nestjs/common';
import { LoginThrottle } from './login-throttle.js';
import { PasswordHasher } from './password-hasher.js';

/**
 * What every sign-in shares, for the modules that check passwords (users, the providers, auth,
 * admin accounts): bcrypt behind its admission limit, and the login throttle. One of each per
 * application, so every sign-in path waits in the same queue and counts in the same throttle.
 */
@Module({
  providers: [PasswordHasher, LoginThrottle],
  exports: [PasswordHasher, LoginThrottle],
})
export class LoginModule {}
