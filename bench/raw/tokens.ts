import { createHash, randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';

export interface RawPrincipal {
  user: string;
  /** The Sales rep's row filter reads this global. */
  employeeId?: number;
}

interface RawUser extends RawPrincipal {
  hash: string;
}

const hashOf = (key: string): string => createHash('sha256').update(key).digest('hex');

/**
 * Users and tokens of the raw server, the leanest honest way: passwords checked with bcrypt
 * (async, on libuv's pool, like Tessera), tokens random, kept by their SHA-256 in a Map.
 */
export class RawTokens {
  private readonly users = new Map<string, RawUser>();
  private readonly tokens = new Map<string, RawPrincipal & { expiration: number }>();

  /** The demo users Tessera seeds (demo, sam), with the same password, hashed at the given cost. */
  static async withDemoUsers(cost: number): Promise<RawTokens> {
    const tokens = new RawTokens();
    const hash = await bcrypt.hash('Password1', cost);
    tokens.users.set('demo', { user: 'demo', hash });
    tokens.users.set('sam', { user: 'sam', hash, employeeId: 1 });
    return tokens;
  }

  /** A new token for a correct password; undefined otherwise (an unknown user still costs one comparison). */
  async login(
    username: string,
    password: string,
  ): Promise<{ apikey: string; hash: string; principal: RawPrincipal; expiration: number } | undefined> {
    const user = this.users.get(username);
    const matches = await bcrypt.compare(password, user?.hash ?? '$2b$10$invalidinvalidinvalidinvalidinvalidinvalidinvalidinva');
    if (!user || !matches) return undefined;
    const apikey = randomBytes(24).toString('base64url');
    const expiration = Date.now() + 86_400_000;
    const principal = { user: user.user, employeeId: user.employeeId };
    this.tokens.set(hashOf(apikey), { ...principal, expiration });
    return { apikey, hash: hashOf(apikey), principal, expiration };
  }

  /** The principal of `Authorization: CALiveAPICreator <key>:1`, or undefined. */
  verify(header: string | undefined): RawPrincipal | undefined {
    const match = header === undefined ? null : /^\s*(?:CALiveAPICreator|Espresso|Bearer)\s+([^:\s]+)(?::\d+)?\s*$/i.exec(header);
    if (!match) return undefined;
    const found = this.tokens.get(hashOf(match[1]!));
    return found && found.expiration > Date.now() ? found : undefined;
  }
}
