import type { AppConfig } from '../config/app-config.js';
import { isLoopbackBind } from '../config/hosts.js';
import type { PasswordHasher } from '../login/password-hasher.js';
import type { SeedUser } from './seed-user.js';
import type { UsersService } from './users.service.js';

/**
 * The boot stops here: seed users (the demo's) can still log in with the passwords the project
 * definition holds and the README prints, on a bind other machines reach.
 */
export class PublishedPasswordsError extends Error {
  constructor(logins: string[], host: string) {
    const names = logins.length === 1 ? logins[0]! : `${logins.slice(0, -1).join(', ')} and ${logins.at(-1)!}`;
    super(
      `${logins.length === 1 ? 'The seed user' : 'The seed users'} ${names} still ${logins.length === 1 ? 'has its' : 'have their'} ` +
        `password from the project definition (the demo's are in the README), and HOST=${host} lets other machines connect: ` +
        'anyone who reaches this port could log in as them. Change those passwords first, on a loopback bind (HOST=127.0.0.1, ' +
        'the default): in the console at /admin/ or with PUT /admin/v1/users/<login>/password (or make the users inactive, ' +
        'or delete them); or serve a project of your own (npm run generate); or set DEMO_USERS_ALLOW_PUBLIC=1 to start anyway.',
    );
    this.name = 'PublishedPasswordsError';
  }
}

/**
 * Refuses to serve seed users whose password is still the published one on a bind that is not
 * loopback, unless DEMO_USERS_ALLOW_PUBLIC says to. The published passwords are already in the
 * project definition; nothing new is stored: each active seed user's stored bcrypt hash is
 * checked against its seed password. That costs one bcrypt comparison per seed user at boot (at
 * the cost the hash was made with: the demo's three take about 0.6 s at cost 12 on two cores), so
 * it is spent only when the bind is public, the override is unset and the built-in provider,
 * the only one that logs these users in, is the one in use.
 */
export async function refusePublishedPasswords(
  config: AppConfig,
  seeds: readonly SeedUser[],
  users: UsersService,
  hasher: PasswordHasher,
): Promise<void> {
  if (seeds.length === 0 || config.auth.demoUsersAllowPublic || config.auth.provider !== 'default') return;
  if (isLoopbackBind(config.http.host)) return;
  const stillPublished = await Promise.all(
    seeds.map(async ({ login, password }) => {
      const user = await users.findByLogin(login);
      return user?.active === true && (await hasher.verify(password, user.passwordHash)) ? [login] : [];
    }),
  );
  const logins = stillPublished.flat();
  if (logins.length > 0) throw new PublishedPasswordsError(logins, config.http.host);
}
