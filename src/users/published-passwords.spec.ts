import { loadConfig } from '../config/app-config.js';
import { PasswordHasher } from '../login/password-hasher.js';
import { PublishedPasswordsError, refusePublishedPasswords } from './published-passwords.js';
import type { SeedUser } from './seed-user.js';
import type { User } from './user.entity.js';
import type { UsersService } from './users.service.js';

describe('refusePublishedPasswords', () => {
  const seeds: SeedUser[] = [
    { login: 'demo', password: 'Password1', roles: [] },
    { login: 'readonly', password: 'Password1', roles: [] },
    { login: 'sam', password: 'Password1', roles: [] },
  ];
  const hasher = new PasswordHasher(loadConfig({ BCRYPT_COST: '10' }));
  let stored: Map<string, Pick<User, 'login' | 'passwordHash' | 'active'>>;
  let lookups: string[];
  const users = {
    findByLogin: (login: string) => {
      lookups.push(login);
      return Promise.resolve(stored.get(login));
    },
  } as unknown as UsersService;
  const config = (env: Record<string, string>) => loadConfig({ HOST: '0.0.0.0', ...env });

  beforeAll(async () => {
    await hasher.onModuleInit();
    const seeded = await hasher.hash('Password1');
    const changed = await hasher.hash('A-changed-Passw0rd');
    stored = new Map([
      ['demo', { login: 'demo', passwordHash: seeded, active: true }],
      ['readonly', { login: 'readonly', passwordHash: changed, active: true }],
      ['sam', { login: 'sam', passwordHash: seeded, active: true }],
    ]);
  });
  beforeEach(() => {
    lookups = [];
  });

  it('refuses a public bind while seed users still have their passwords, naming them and the ways out', async () => {
    const refusal = refusePublishedPasswords(config({}), seeds, users, hasher);
    await expect(refusal).rejects.toThrow(PublishedPasswordsError);
    await expect(refusal).rejects.toThrow(
      /^The seed users demo and sam still have their password from the project definition \(the demo's are in the README\), and HOST=0\.0\.0\.0 lets other machines connect/,
    );
    await expect(refusal).rejects.toThrow(/HOST=127\.0\.0\.1, the default.*\/admin\/.*DEMO_USERS_ALLOW_PUBLIC=1 to start anyway\.$/);
  });

  it('never names a password', async () => {
    const error = await refusePublishedPasswords(config({}), seeds, users, hasher).catch((e: unknown) => e as Error);
    expect((error as Error).message).not.toContain('Password1');
  });

  it('serves an inactive or deleted seed user: neither can log in', async () => {
    const sam = stored.get('sam')!;
    stored.set('sam', { ...sam, active: false });
    try {
      await expect(refusePublishedPasswords(config({}), seeds.slice(1), users, hasher)).resolves.toBeUndefined();
      await expect(
        refusePublishedPasswords(config({}), [{ login: 'gone', password: 'Password1', roles: [] }], users, hasher),
      ).resolves.toBe(undefined);
    } finally {
      stored.set('sam', sam);
    }
  });

  it.each([
    ['a loopback bind', { HOST: '127.0.0.1' }],
    ['the default bind', { HOST: '' }],
    ['::1', { HOST: '::1' }],
    ['localhost', { HOST: 'localhost' }],
    ['DEMO_USERS_ALLOW_PUBLIC=1', { DEMO_USERS_ALLOW_PUBLIC: '1' }],
    ['another provider, which does not log seed users in', { AUTH_PROVIDER: 'none' }],
  ])('spends no bcrypt work and starts on %s', async (_, env) => {
    await expect(refusePublishedPasswords(config(env), seeds, users, hasher)).resolves.toBeUndefined();
    expect(lookups).toEqual([]);
  });

  it('starts a project without seed users on any bind', async () => {
    await expect(refusePublishedPasswords(config({}), [], users, hasher)).resolves.toBeUndefined();
  });
});
