// @ts-check
/**
 * Sample provider: log in with a token from an OpenID Connect identity provider (Keycloak,
 * Entra ID, Auth0, Google, ...). The client gets an ID token or a JWT access token there and
 * posts it: {"id_token": "eyJ…"} or {"access_token": "eyJ…"}. The token's signature, issuer,
 * audience and expiry are verified with `jose`; its claims give the user, roles and globals.
 *
 * Settings (oidc.config.example.json):
 *   issuer            the IdP's issuer URL, as in its tokens' "iss" (required)
 *   audience          the client id (or list of them) the token must be meant for (required)
 *   jwksUri           the IdP's JWKS URL; keys are cached (10 minutes) and refetched for an unknown key id
 *   publicKey         instead of jwksUri: a PEM public key (SPKI) or a JWK object
 *   algorithms        accepted signature algorithms (default ["RS256"])
 *   userClaim         the claim that names the user (default "sub")
 *   rolesClaim        the claim holding the roles, a list or a space-separated string (default "roles";
 *                     a dotted path such as "realm_access.roles" reaches into nested claims)
 *   roleMap           claim value -> role name (or list of names); values not in it give no role.
 *                     Absent: the claim values are the role names
 *   globalClaims      claims copied into the token's globals: a list of names, or {claim: globalName}
 *   clockToleranceSeconds  leeway for exp/nbf/iat (default 30)
 *   keyLifetimeSeconds     the API token's lifetime; absent: it expires with the presented token
 * A login whose claims give no role is refused.
 */
import { createRemoteJWKSet, importJWK, importSPKI, jwtVerify } from 'jose';

/** jose error codes that mean "this token is no good", with what the client is told. */
const REFUSALS = {
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: "the token's signature is not valid",
  ERR_JWT_EXPIRED: 'the token has expired',
  ERR_JWS_INVALID: 'the token is malformed',
  ERR_JWT_INVALID: 'the token is malformed',
  ERR_JOSE_ALG_NOT_ALLOWED: 'the token is signed with an algorithm that is not accepted',
  ERR_JWKS_NO_MATCHING_KEY: 'the token is signed with an unknown key',
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: 'the token is signed with an unknown key',
};

/** @type {Record<string, string>} */
const CLAIM_REFUSALS = {
  iss: 'the token was issued by another issuer',
  aud: 'the token is meant for another audience',
  nbf: 'the token is not valid yet',
};

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

/**
 * A claim by name, or by dotted path into nested claims when no claim has the whole name
 * (claim names may be URLs, which have dots of their own).
 * @param {Record<string, unknown>} claims
 * @param {string} name
 * @returns {unknown}
 */
function claimAt(claims, name) {
  if (name in claims) return claims[name];
  /** @type {unknown} */
  let value = claims;
  for (const part of name.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = /** @type {Record<string, unknown>} */ (value)[part];
  }
  return value;
}

/**
 * @param {unknown} value
 * @returns {string[]}
 */
function listOf(value) {
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((v) => typeof v === 'string');
  return [];
}

/**
 * A claim value as a global value (a JSON scalar).
 * @param {unknown} value
 * @returns {string | number | boolean | null}
 */
function scalar(value) {
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))
    return value;
  return JSON.stringify(value);
}

/** @type {import('./types.js').ProviderFactory} */
export default function create() {
  /** @type {Parameters<typeof jwtVerify>[1] | undefined} */
  let key;
  /** @type {Required<Pick<import('jose').JWTVerifyOptions, 'issuer' | 'audience' | 'algorithms' | 'clockTolerance'>>} */
  let verifyOptions = { issuer: '', audience: '', algorithms: [], clockTolerance: 30 };
  let userClaim = 'sub';
  let rolesClaim = 'roles';
  /** @type {Record<string, string | string[]> | undefined} */
  let roleMap;
  /** @type {Record<string, string>} claim -> global name */
  let globalClaims = {};
  /** @type {number | undefined} */
  let keyLifetimeSeconds;
  /** @type {string} */
  let source = '';

  return {
    async configure(config) {
      const problems = [];
      const text = (/** @type {unknown} */ v) => typeof v === 'string' && v !== '';
      if (!text(config.issuer)) problems.push('"issuer": the issuer URL of the identity provider');
      const audience = config.audience;
      if (!text(audience) && !(Array.isArray(audience) && audience.length > 0 && audience.every(text)))
        problems.push('"audience": the client id, or a list of them');
      if (text(config.jwksUri) === (config.publicKey !== undefined))
        problems.push('exactly one of "jwksUri" (the JWKS URL) or "publicKey" (PEM or JWK)');
      const algorithms = config.algorithms ?? ['RS256'];
      if (!Array.isArray(algorithms) || algorithms.length === 0 || !algorithms.every(text))
        problems.push('"algorithms": a list such as ["RS256"]');
      for (const name of ['userClaim', 'rolesClaim'])
        if (config[name] !== undefined && !text(config[name])) problems.push(`"${name}": a claim name`);
      const map = config.roleMap;
      const isRoleNames = (/** @type {unknown} */ v) => text(v) || (Array.isArray(v) && v.every(text));
      if (map !== undefined && (typeof map !== 'object' || map === null || Array.isArray(map) || !Object.values(map).every(isRoleNames))) {
        problems.push('"roleMap": an object of claim value -> role name (or list of role names)');
      }
      const globals = config.globalClaims ?? [];
      /** @type {unknown} the setting in its object form, checked next */
      const globalNames = Array.isArray(globals) ? Object.fromEntries(globals.map((/** @type {unknown} */ g) => [g, g])) : globals;
      if (
        typeof globalNames !== 'object' ||
        globalNames === null ||
        !Object.values(globalNames).every((g) => typeof g === 'string' && IDENTIFIER.test(g))
      ) {
        problems.push('"globalClaims": a list of claim names (identifiers), or an object of claim -> global name');
      }
      const tolerance = config.clockToleranceSeconds ?? 30;
      if (typeof tolerance !== 'number' || tolerance < 0) problems.push('"clockToleranceSeconds": a number of seconds');
      const lifetime = config.keyLifetimeSeconds;
      if (lifetime !== undefined && (typeof lifetime !== 'number' || !Number.isInteger(lifetime) || lifetime < 1))
        problems.push('"keyLifetimeSeconds": whole seconds');
      if (problems.length > 0) throw new Error(`oidc needs ${problems.join('; ')}`);

      const algs = /** @type {[string, ...string[]]} */ (algorithms);
      if (typeof config.jwksUri === 'string') {
        key = createRemoteJWKSet(new URL(config.jwksUri), { cacheMaxAge: 10 * 60_000, cooldownDuration: 30_000 });
        source = config.jwksUri;
      } else if (typeof config.publicKey === 'string') {
        key = await importSPKI(config.publicKey, algs[0]);
        source = 'publicKey';
      } else {
        const jwk = /** @type {import('jose').JWK} */ (config.publicKey);
        key = await importJWK(jwk, jwk.alg ?? algs[0]);
        source = 'publicKey';
      }
      verifyOptions = {
        issuer: /** @type {string} */ (config.issuer),
        audience: /** @type {string | string[]} */ (audience),
        algorithms: algs,
        clockTolerance: /** @type {number} */ (tolerance),
      };
      userClaim = /** @type {string | undefined} */ (config.userClaim) ?? 'sub';
      rolesClaim = /** @type {string | undefined} */ (config.rolesClaim) ?? 'roles';
      roleMap = /** @type {Record<string, string | string[]> | undefined} */ (map);
      globalClaims = /** @type {Record<string, string>} */ (globalNames);
      keyLifetimeSeconds = /** @type {number | undefined} */ (lifetime);
    },

    async authenticate(payload, context) {
      const token = typeof payload.id_token === 'string' ? payload.id_token : payload.access_token;
      if (typeof token !== 'string' || token === '') return { errorMessage: 'Login failed: send an "id_token" or an "access_token".' };
      if (!key) throw new Error('oidc is not configured');

      /** @type {import('jose').JWTPayload} */
      let claims;
      try {
        // Typed here: in JavaScript, the type argument jwtVerify cannot infer is `any`, and so would the payload be.
        /** @type {import('jose').JWTVerifyResult<import('jose').JWTPayload>} */
        const verified = await jwtVerify(token, key, { ...verifyOptions, requiredClaims: ['exp'] });
        claims = verified.payload;
      } catch (error) {
        const { code, claim } = /** @type {{ code?: string, claim?: string }} */ (error);
        const reason =
          (code && code in REFUSALS ? REFUSALS[/** @type {keyof typeof REFUSALS} */ (code)] : undefined) ??
          (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED'
            ? (CLAIM_REFUSALS[claim ?? ''] ?? `the token's "${claim}" claim is not valid`)
            : undefined);
        // Anything else (the JWKS unreachable, ...) is not the token's fault: let Tessera log it.
        if (!reason) throw error;
        context.logger.info(`token refused: ${reason}`);
        return { errorMessage: `Login failed: ${reason}.` };
      }

      const user = claimAt(claims, userClaim);
      if ((typeof user !== 'string' || user === '') && typeof user !== 'number') {
        return { errorMessage: `Login failed: the token has no "${userClaim}" claim.` };
      }
      const values = listOf(claimAt(claims, rolesClaim));
      const mapped = (/** @type {string} */ v) => (roleMap && Object.hasOwn(roleMap, v) ? [roleMap[v] ?? []].flat() : []);
      const roleNames = [...new Set(roleMap ? values.flatMap(mapped) : values)];
      if (roleNames.length === 0) return { errorMessage: 'Login failed: the token grants no role in this API.' };

      /** @type {Record<string, string | number | boolean | null>} */
      const userData = {};
      for (const [claim, global] of Object.entries(globalClaims)) {
        const value = claimAt(claims, claim);
        if (value !== undefined) userData[global] = scalar(value);
      }
      return {
        roleNames,
        userIdentifier: String(user),
        ...(keyLifetimeSeconds ? { keyLifetimeSeconds } : { keyExpiration: new Date(/** @type {number} */ (claims.exp) * 1000) }),
        userData,
        ...(typeof claims.email === 'string' ? { userInfo: { email: claims.email } } : {}),
      };
    },

    getLoginInfo() {
      return {
        fields: [{ name: 'id_token', display: 'ID token from your identity provider', type: 'password' }],
        links: [],
      };
    },

    getConfigInfo() {
      return {
        current: {
          issuer: verifyOptions.issuer,
          audience: verifyOptions.audience,
          keys: source,
          algorithms: verifyOptions.algorithms,
          userClaim,
          rolesClaim,
          roleMap: roleMap ?? null,
          globalClaims,
        },
        fields: [
          { name: 'issuer', display: 'Issuer URL', type: 'text' },
          { name: 'audience', display: 'Audience (client id)', type: 'text' },
          { name: 'jwksUri', display: 'JWKS URL', type: 'text' },
          { name: 'publicKey', display: 'Public key (PEM or JWK), instead of the JWKS URL', type: 'text' },
          { name: 'rolesClaim', display: 'Claim holding the roles', type: 'text' },
          { name: 'roleMap', display: 'Claim value -> role name', type: 'text' },
          { name: 'globalClaims', display: 'Claims copied into globals', type: 'text' },
        ],
      };
    },
  };
}
