// @ts-check
/**
 * Sample provider: one secret word, set in the configuration, opens the API.
 *
 * The client sends {"password": "<the word>"} and may add a "username", which becomes the
 * token's user identifier (unchecked: everyone who knows the word may call themselves
 * anything). The word is compared in constant time, on SHA-256 digests so that even its
 * length does not leak.
 *
 * Settings (secret-word.config.example.json; put the secret in AUTH_PROVIDER_CONFIG):
 *   secret          the word, at least 8 characters (required)
 *   roles           the roles of every token, e.g. ["Full access"] (required)
 *   userIdentifier  the identifier when no username is sent (default "guest")
 */
import { createHash, timingSafeEqual } from 'node:crypto';

const FAILED = 'Login failed: wrong secret word.';

/** @param {string} text */
const digest = (text) => createHash('sha256').update(text, 'utf8').digest();

/** @type {import('./types.js').ProviderFactory} */
export default function create() {
  /** @type {Buffer} */
  let secretDigest = Buffer.alloc(0);
  /** @type {string[]} */
  let roles = [];
  let defaultUser = 'guest';

  return {
    configure(config) {
      const problems = [];
      if (typeof config.secret !== 'string' || config.secret.length < 8) problems.push('"secret": a word of at least 8 characters');
      const r = config.roles;
      if (!Array.isArray(r) || r.length === 0 || !r.every((x) => typeof x === 'string' && x !== ''))
        problems.push('"roles": a list of role names, e.g. ["Full access"]');
      const u = config.userIdentifier;
      if (u !== undefined && (typeof u !== 'string' || u === '')) problems.push('"userIdentifier": a non-empty string, or leave it out');
      if (problems.length > 0) throw new Error(`secret-word needs ${problems.join('; ')}`);
      secretDigest = digest(/** @type {string} */ (config.secret));
      roles = /** @type {string[]} */ (r);
      defaultUser = /** @type {string | undefined} */ (u) ?? 'guest';
    },

    authenticate(payload) {
      const word = payload.password;
      if (typeof word !== 'string' || !timingSafeEqual(digest(word), secretDigest)) return { errorMessage: FAILED };
      const named = typeof payload.username === 'string' && payload.username.trim() !== '';
      return { roleNames: [...roles], userIdentifier: named ? /** @type {string} */ (payload.username).trim() : defaultUser };
    },

    getLoginInfo() {
      return {
        fields: [
          { name: 'username', display: 'Your name (optional)', type: 'text' },
          { name: 'password', display: 'Secret word', type: 'password' },
        ],
        links: [],
      };
    },

    getConfigInfo() {
      return {
        current: { roles, userIdentifier: defaultUser },
        fields: [
          {
            name: 'secret',
            display: 'Secret word',
            type: 'password',
            description: 'At least 8 characters; set it through AUTH_PROVIDER_CONFIG',
          },
          { name: 'roles', display: 'Roles of every token', type: 'text' },
          { name: 'userIdentifier', display: 'User identifier when no username is sent', type: 'text' },
        ],
      };
    },
  };
}
